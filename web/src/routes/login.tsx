import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LoginBodySchema } from '@hop/shared';
import { useApi } from '../api.js';
import { useSession } from '../session.js';
import { check, type FieldErrors } from '../form-errors.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';
import { nextPath } from '../next-path.js';

export default function LoginPage() {
  const api = useApi();
  const { signIn } = useSession();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const checked = check(LoginBodySchema, { email: f.get('email'), password: f.get('password') });
    setErrors(checked.errors ?? {});
    setError(null);
    if (!checked.data) return;
    setBusy(true);
    try {
      signIn((await api.call('login', { body: checked.data })).data);
      navigate(nextPath(search));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="narrow">
      <h1>Sign in to Hop</h1>
      <form onSubmit={submit} noValidate>
        <Field label="Email" name="email" type="email" autoComplete="username" required error={errors.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.password} />
        <ErrorAlert error={error} />
        <button type="submit" disabled={busy}>Sign in</button>
      </form>
      <p>New to Hop? <Link to={`/signup${search.toString() ? `?${search}` : ''}`}>Create an account</Link></p>
    </div>
  );
}
