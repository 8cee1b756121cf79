import { Link, useNavigate, useSearchParams } from 'react-router';
import { useLogin } from '../queries/auth.js';
import { useSession } from '../session.js';
import { useServerInfo } from '../queries/server.js';
import { useLazyCheckedForm } from '../use-lazy-checked-form.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { nextPath } from '../next-path.js';

export default function LoginPage() {
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const signup = useServerInfo().data?.signup;
  // The form's check (zod and the schema) loads when the form is first used, not with the page.
  const { onSubmit, preload, errors, alert, busy } = useLazyCheckedForm(() => import('@hop/shared/users').then((m) => m.LoginBodySchema), {
    read: (f) => ({ email: f.get('email'), password: f.get('password') }),
    mutation: useLogin(),
    onSuccess: (session) => {
      signIn(session);
      navigate(nextPath(search));
    },
  });

  return (
    <div className="narrow">
      <h1>Sign in to Hop</h1>
      <form onSubmit={onSubmit} onFocus={preload} noValidate>
        <Field label="Email" name="email" type="email" autoComplete="username" required error={errors.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.password} />
        <ErrorAlert error={alert} />
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
      <p><Link to="/forgot-password">Forgot your password?</Link></p>
      {signup === 'closed'
        ? <p>New to Hop? This server does not take sign-ups: ask its operator for an account.</p>
        : <p>New to Hop? <Link to={`/signup${search.toString() ? `?${search}` : ''}`}>Create an account</Link>{signup === 'invite' ? ' with your invite' : ''}</p>}
    </div>
  );
}
