import { useState } from 'react';
import { Link } from 'react-router';
import { useEndSessions, useSessions } from '../queries/account.js';
import { ErrorAlert } from './error-alert.js';
import { Loading } from './states.js';
import { DataTable } from './data-table.js';
import { useConfirm } from './confirm.js';

/** Where the account is signed in, with a sign-out for each and "sign out everywhere else". */
export function SessionsList() {
  const confirm = useConfirm();
  const [notice, setNotice] = useState<string | null>(null);
  const sessions = useSessions();
  const end = useEndSessions();
  const said = (what: string) => (n: number) => setNotice(`${what}: ${n} session${n === 1 ? '' : 's'} signed out.`);
  const endOne = (id: string) => end.mutate(id, { onSuccess: said('Signed out') });
  const endOthers = () => {
    void confirm({ message: 'Sign out every other session and CLI login? This one stays signed in.', action: 'Sign out everywhere else' })
      .then((yes) => { if (yes) end.mutate(undefined, { onSuccess: said('Signed out everywhere else') }); });
  };
  return (
    <section aria-labelledby="sessions-heading">
      <div className="page-head">
        <h2 id="sessions-heading">Sessions</h2>
        <div className="actions"><button type="button" onClick={endOthers}>Sign out everywhere else</button></div>
      </div>
      <ErrorAlert error={sessions.error ?? end.error} />
      {notice ? <p role="status">{notice}</p> : null}
      {sessions.isLoading ? <Loading what="Loading sessions" /> : null}
      {sessions.data?.length ? (
        <DataTable label="Sessions" rows={sessions.data} rowKey={(s) => s.id} columns={[
          { key: 'device', header: 'Device', phone: 'title', cell: (s) => <>{s.userAgent ?? 'unknown'}{s.current ? <strong> (this session)</strong> : null}</> },
          { key: 'created', header: 'Signed in', cell: (s) => new Date(s.createdAt).toLocaleString() },
          { key: 'used', header: 'Last used', cell: (s) => new Date(s.lastUsedAt).toLocaleString() },
          { key: 'actions', header: '', label: 'Actions', phone: 'unlabelled', cell: (s) => (s.current ? null : <button type="button" className="link-button" onClick={() => endOne(s.id)}>End session</button>) },
        ]} />
      ) : null}
      <p className="hint">CLI logins made with <code>hop login</code> are listed under <Link to="/account/apps">Connected apps</Link>; signing out everywhere else ends them too.</p>
    </section>
  );
}
