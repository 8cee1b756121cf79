import { Link, useNavigate, useParams } from 'react-router';
import { useAcceptInvite, useInvitePreview } from '../queries/members.js';
import { Loading } from '../components/states.js';
import { useSession } from '../session.js';
import { ErrorAlert } from '../components/error-alert.js';
import { dashboardPath } from '@hop/shared/dashboard-paths';

/** The invite's acceptUrl: sign in or sign up (coming back here), then accept. */
export default function InviteAcceptPage() {
  const { token = '' } = useParams();
  const { session } = useSession();
  const navigate = useNavigate();
  const acceptInvite = useAcceptInvite();
  const preview = useInvitePreview(token);
  const inv = preview.data;
  const here = `/invites/${encodeURIComponent(token)}`;
  const accept = () => acceptInvite.mutate(token, { onSuccess: (ws) => navigate(dashboardPath('links', { ws: ws.slug })) });
  return (
    <div className="narrow">
      <h1>Join a workspace</h1>
      {preview.isLoading ? <Loading what="Loading the invite" /> : null}
      {inv ? (
        <p data-testid="invite-summary">
          {inv.inviterName ?? 'Someone'} invited <strong>{inv.email}</strong> to the workspace <strong>{inv.workspaceName}</strong> as {inv.role === 'admin' ? 'an' : 'a'} {inv.role}.
          {' '}The invite expires {new Date(inv.expiresAt).toLocaleDateString()}.
        </p>
      ) : <ErrorAlert error={preview.error} />}
      {session ? (
        <>
          <p>You are signed in as <strong>{session.user.email}</strong>. The invite must have been sent to this address.</p>
          <ErrorAlert error={acceptInvite.error} />
          <button type="button" onClick={accept} disabled={acceptInvite.isPending}>Accept invite</button>
        </>
      ) : (
        <>
          <p>Sign in, or create an account with the invited e-mail address, to accept.</p>
          <p className="inline">
            <Link className="button" to={`/login?next=${encodeURIComponent(here)}`}>Sign in</Link>
            <Link className="button secondary" to={`/signup?next=${encodeURIComponent(here)}`}>Sign up</Link>
          </p>
        </>
      )}
    </div>
  );
}
