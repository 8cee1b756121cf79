import { Link, useNavigate, useSearchParams } from 'react-router';
import { inviteTokenFrom } from '@hop/shared/constants';
import { SignupBodySchema } from '@hop/shared/users';
import { useSignup } from '../queries/auth.js';
import { useSession } from '../session.js';
import { useServerInfo } from '../queries/server.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Loading } from '../components/states.js';
import { nextPath, oauthReturnPath } from '../next-path.js';

/** The invite this sign-up comes from: `?invite=`, or the invite page it will return to (`?next=/invites/...`). */
function inviteOf(search: URLSearchParams): string | undefined {
  const next = search.get('next') ?? '';
  return inviteTokenFrom(search.get('invite')) ?? (next.startsWith('/invites/') ? inviteTokenFrom(next) : undefined);
}

/** Sign-up as the server allows it (HOP_SIGNUP): open, by invite (asked for unless the link carried it), or closed. */
export default function SignupPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const server = useServerInfo();
  const invite = inviteOf(search);
  const { onSubmit, errors, alert, busy } = useCheckedForm(SignupBodySchema, {
    read: (f) => ({
      name: f.get('name'), email: f.get('email'), password: f.get('password'),
      inviteToken: invite ?? inviteTokenFrom(f.get('invite') as string | null),
    }),
    mutation: useSignup(),
    onSuccess: (session, form) => {
      signIn(session);
      // Back to an OAuth sign-in page (a path of the API) or to a page of the app; an invite is
      // accepted by the sign-up itself, so its page has nothing left to do.
      const oauth = oauthReturnPath(search);
      if (oauth) window.location.assign(oauth);
      else navigate(new FormData(form).get('invite') || invite ? '/' : nextPath(search));
    },
  });

  const login = `/login${search.toString() ? `?${search}` : ''}`;
  const signup = server.data?.signup;
  if (server.isLoading) return <Loading what="Loading sign-up" />;
  if (signup === 'closed') {
    return (
      <div className="narrow">
        <h1>Sign-up is closed</h1>
        <p>This Hop server does not take sign-ups. Ask its operator to create your account.</p>
        <p>Already have an account? <Link to={login}>Sign in</Link></p>
      </div>
    );
  }
  return (
    <div className="narrow">
      <h1>Create your Hop account</h1>
      {invite ? <p>You are signing up with an invite: your account joins its workspace. Use the e-mail address the invite was sent to.</p> : null}
      <form onSubmit={onSubmit} noValidate>
        <Field label="Name" name="name" autoComplete="name" required error={errors.name} />
        <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required hint="At least 8 characters." error={errors.password} />
        {signup === 'invite' && !invite ? (
          <Field label="Invite link" name="invite" autoComplete="off" spellCheck={false} required error={errors.inviteToken}
            hint="This server takes sign-ups by invite only: paste the link of the invite you were sent." />
        ) : null}
        <ErrorAlert error={alert} />
        <button type="submit" disabled={busy}>Sign up</button>
      </form>
      <p>Already have an account? <Link to={login}>Sign in</Link></p>
    </div>
  );
}
