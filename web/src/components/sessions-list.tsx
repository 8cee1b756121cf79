import { useState } from 'react';
import { Link } from 'react-router';
import { useEndSessions, useSessions } from '../queries/account.js';
import { ErrorAlert } from './error-alert.js';
import { Loading } from './states.js';

/** Where the account is signed in, with a sign-out for each and "sign out everywhere else". */
export function SessionsList() {
  const [notice, setNotice] = useState<string | null>(null);
  const sessions = useSessions();
  const end = useEndSessions();
  const said = (what: string) => (n: number) => setNotice(`${what}: ${n} session${n === 1 ? '' : 's'} signed out.`);
  const endOne = (id: string) => end.mutate(id, { onSuccess: said('Signed out') });
  const endOthers = () => {
    if (window.confirm('Sign out every other session and CLI login? This one stays signed in.')) end.mutate(undefined, { onSuccess: said('Signed out everywhere else') });
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
        <div className="table-wrap" role="region" aria-label="Sessions" tabIndex={0}>
          <table>
            <thead><tr><th scope="col">Device</th><th scope="col">Signed in</th><th scope="col">Last used</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {sessions.data.map((s) => (
                <tr key={s.id}>
                  <td>{s.userAgent ?? 'unknown'}{s.current ? <strong> (this session)</strong> : null}</td>
                  <td>{new Date(s.createdAt).toLocaleString()}</td>
                  <td>{new Date(s.lastUsedAt).toLocaleString()}</td>
                  <td>{s.current ? null : <button type="button" className="link-button" onClick={() => endOne(s.id)}>End session</button>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <p className="hint">CLI logins made with <code>hop login</code> are listed under <Link to="/account/apps">Connected apps</Link>; signing out everywhere else ends them too.</p>
    </section>
  );
}
