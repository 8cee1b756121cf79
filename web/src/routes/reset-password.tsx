import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmPasswordResetBodySchema } from '@hop/shared/accounts';
import { useConfirmPasswordReset } from '../queries/auth.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';

/** The page a reset link opens: the token is in the URL's fragment, which no request carries. */
export default function ResetPasswordPage() {
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '');
  const [done, setDone] = useState(false);
  const { onSubmit, errors, alert, busy } = useCheckedForm(ConfirmPasswordResetBodySchema, {
    read: (f) => ({ token, newPassword: f.get('newPassword') }),
    mutation: useConfirmPasswordReset(),
    onSuccess: () => setDone(true),
  });
  if (!token) {
    return <div className="narrow"><h1>Choose a new password</h1><p role="alert">This link has no reset token. <Link to="/forgot-password">Ask for a new link</Link>.</p></div>;
  }
  return (
    <div className="narrow">
      <h1>Choose a new password</h1>
      {done ? (
        <p role="status">Your password is changed and every session was signed out. <Link to="/login">Sign in</Link> with the new password.</p>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Field label="New password" name="newPassword" type="password" autoComplete="new-password" required minLength={8} error={errors.newPassword}
            hint="At least 8 characters, not a common password." />
          {errors.token ? <p role="alert" className="field-error">This link {errors.token} <Link to="/forgot-password">Ask for a new link</Link>.</p> : null}
          <ErrorAlert error={alert} />
          <button type="submit" disabled={busy}>Set the new password</button>
        </form>
      )}
    </div>
  );
}
