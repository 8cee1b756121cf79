import { useState } from 'react';
import { Link } from 'react-router';
import { PasswordResetBodySchema } from '@hop/shared/accounts';
import { useRequestPasswordReset } from '../queries/auth.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Field } from '../components/field.js';
import { ErrorAlert } from '../components/error-alert.js';

/** Asks for a reset link by e-mail; the answer is the same whether or not the address has an account. */
export default function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { onSubmit, errors, alert, busy } = useCheckedForm(PasswordResetBodySchema, {
    read: (f) => ({ email: f.get('email') }),
    mutation: useRequestPasswordReset(),
    onSuccess: (email) => setSentTo(email),
  });
  return (
    <div className="narrow">
      <h1>Reset your password</h1>
      {sentTo ? (
        <p role="status">If {sentTo} has a Hop account, a link to choose a new password is on its way. It works once, for 30 minutes. No e-mail? The server may not send mail: ask its operator for a reset link.</p>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Field label="Email" name="email" type="email" autoComplete="username" required error={errors.email} />
          <ErrorAlert error={alert} />
          <button type="submit" disabled={busy}>Send a reset link</button>
        </form>
      )}
      <p><Link to="/login">Back to sign in</Link></p>
    </div>
  );
}
