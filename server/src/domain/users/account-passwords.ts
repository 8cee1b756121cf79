import type { ChangePasswordBody, ConfirmPasswordResetBody, PasswordChanged } from '@hop/shared';
import type { Database, Queryable } from '../../db/database.js';
import { notFound, validationError } from '../errors.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import type { PasswordChecks } from '../auth/password-checks.js';
import { requireStrongPassword } from '../auth/password-strength.js';
import type { PasswordResets } from '../auth/password-resets.js';
import type { CurrentSignIn, Sessions } from '../auth/sessions-service.js';

/**
 * Changing a password (the current one required) and setting one with a reset link. Either ends
 * the account's other sign-ins (a reset: all of them) and voids the reset links still out.
 */
export function createAccountPasswords(deps: { db: Database; checks: PasswordChecks; sessions: Sessions; resets: PasswordResets }) {
  const { db, checks, sessions, resets } = deps;

  async function store(userId: string, newPassword: string, use: (tx: Queryable) => Promise<void>) {
    const passwordHash = await hashPassword(newPassword);
    await db.transaction(async (tx) => {
      await use(tx);
      await tx.query('update users set password_hash = $2 where id = $1', [userId, passwordHash]);
      await resets.voidFor(tx, userId);
    });
  }

  return {
    async change(userId: string, current: CurrentSignIn, body: ChangePasswordBody): Promise<PasswordChanged> {
      const [user] = await db.query<{ email: string; password_hash: string }>('select email, password_hash from users where id = $1', [userId]);
      if (!user) throw notFound('user');
      // Through the account's lockout, as every check of an account password.
      const ok = await checks.check(user.email, () => verifyPassword(body.currentPassword, user.password_hash));
      if (!ok) throw validationError('currentPassword', 'is not your current password');
      requireStrongPassword('newPassword', body.newPassword, user.email);
      await store(userId, body.newPassword, async () => {});
      return { endedSessions: await sessions.endOthers(userId, current) };
    },

    async confirmReset(body: ConfirmPasswordResetBody): Promise<PasswordChanged> {
      const { userId, email } = await resets.peek(body.token);
      requireStrongPassword('newPassword', body.newPassword, email);
      await store(userId, body.newPassword, async (tx) => {
        if ((await resets.consume(tx, body.token)) !== userId) throw notFound('user');
      });
      return { endedSessions: await sessions.endOthers(userId) };
    },
  };
}

export type AccountPasswords = ReturnType<typeof createAccountPasswords>;
