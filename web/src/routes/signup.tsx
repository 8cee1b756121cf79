import { Link, useNavigate, useSearchParams } from 'react-router';
import { SignupBodySchema } from '@hop/shared';
import { useApi } from '../api.js';
import { useSession } from '../session.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { nextPath, oauthReturnPath } from '../next-path.js';

export default function SignupPage() {
  const api = useApi();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const { onSubmit, errors, alert, busy } = useCheckedForm(SignupBodySchema, {
    read: (f) => ({ name: f.get('name'), email: f.get('email'), password: f.get('password') }),
    send: async (body) => (await api.call('signup', { body })).data,
    onSuccess: (session) => {
      signIn(session);
      // Back to an OAuth sign-in page (a path of the API) or to a page of the app.
      const oauth = oauthReturnPath(search);
      if (oauth) window.location.assign(oauth);
      else navigate(nextPath(search));
    },
  });

  const login = `/login${search.toString() ? `?${search}` : ''}`;
  return (
    <div className="narrow">
      <h1>Create your Hop account</h1>
      <form onSubmit={onSubmit} noValidate>
        <Field label="Name" name="name" autoComplete="name" required error={errors.name} />
        <Field label="Email" name="email" type="email" autoComplete="email" required error={errors.email} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required hint="At least 8 characters." error={errors.password} />
        <ErrorAlert error={alert} />
        <button type="submit" disabled={busy}>Sign up</button>
      </form>
      <p>Already have an account? <Link to={login}>Sign in</Link></p>
    </div>
  );
}
