import { useState } from 'react';
import { ChangePasswordBodySchema } from '@hop/shared/accounts';
import { useChangePassword } from '../queries/account.js';
import { useCheckedForm } from '../use-checked-form.js';
import { Field } from './field.js';
import { ErrorAlert } from './error-alert.js';

/** Change the password: the current one, then the new one; every other session is signed out. */
export function ChangePasswordForm() {
  const [done, setDone] = useState<string | null>(null);
  const { onSubmit, errors, alert, busy } = useCheckedForm(ChangePasswordBodySchema, {
    read: (f) => ({ currentPassword: f.get('currentPassword'), newPassword: f.get('newPassword') }),
    mutation: useChangePassword(),
    onSuccess: (result) => {
      const n = result.endedSessions;
      setDone(`Password changed. ${n} other session${n === 1 ? ' was' : 's were'} signed out.`);
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate className="card" onChange={() => setDone(null)}>
      <h2>Change password</h2>
      <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required error={errors.currentPassword} />
      <Field label="New password" name="newPassword" type="password" autoComplete="new-password" required minLength={8} error={errors.newPassword}
        hint="At least 8 characters, not a common password. Every other session is signed out." />
      <ErrorAlert error={alert} />
      {done ? <p role="status">{done}</p> : null}
      <button type="submit" disabled={busy}>Change password</button>
    </form>
  );
}
