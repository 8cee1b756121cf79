import { Link } from 'react-router';
import { useMe } from '../queries/account.js';
import { Page } from '../components/layout.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Loading } from '../components/states.js';
import { useSession } from '../session.js';
import { ChangePasswordForm } from '../components/change-password-form.js';
import { SessionsList } from '../components/sessions-list.js';

/** Who is signed in and until when; the password, the sessions and the connected apps. */
export default function AccountPage() {
  const { session } = useSession();
  const me = useMe();
  return (
    <Page title="Account">
      <ErrorAlert error={me.error} />
      {me.isLoading ? <Loading /> : null}
      {me.data ? (
        <dl className="facts">
          <dt>Name</dt><dd>{me.data.name}</dd>
          <dt>Email</dt><dd>{me.data.email}</dd>
          <dt>Member since</dt><dd>{new Date(me.data.createdAt).toLocaleDateString()}</dd>
          <dt>This session ends</dt><dd>{session ? new Date(session.expiresAt).toLocaleString() : ''}</dd>
          {me.data.isOperator ? <><dt>Role on this server</dt><dd>Operator (its first account)</dd></> : null}
        </dl>
      ) : null}
      <p><Link to="/account/apps">Connected apps</Link>: the applications and CLI logins you allowed to act for you.</p>
      <ChangePasswordForm />
      <SessionsList />
      <p className="hint">The command line signs in with <code>hop login</code>; API keys for scripts and CI are made in each workspace's settings.</p>
    </Page>
  );
}
