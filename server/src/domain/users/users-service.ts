import type { AuthResult, LoginBody, SignupBody, User } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import { HopError, notFound } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { decoyHash, hashPassword, verifyPassword } from '../passwords.js';
import { iso } from '../timestamps.js';
import type { SessionTokens } from '../auth/session-tokens.js';
import type { PasswordChecks } from '../auth/password-checks.js';

interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: Date;
}

export const toUser = (r: Pick<UserRow, 'id' | 'email' | 'name' | 'created_at'>): User => ({
  id: r.id,
  email: r.email,
  name: r.name,
  createdAt: iso(r.created_at),
});

export function createUsersService(deps: { db: Queryable; newId: IdGenerator; sessions: SessionTokens; checks: PasswordChecks }) {
  const { db, newId, sessions, checks } = deps;

  async function issue(user: User): Promise<AuthResult> {
    const { token, expiresAt } = await sessions.sign(user.id);
    return { user, token, expiresAt: iso(expiresAt) };
  }

  return {
    async signup(body: SignupBody): Promise<AuthResult> {
      const passwordHash = await hashPassword(body.password);
      const rows = await db.query<UserRow>(
        `insert into users (id, email, name, password_hash) values ($1, $2, $3, $4)
         on conflict do nothing returning *`,
        [newId('usr'), body.email.trim(), body.name, passwordHash],
      );
      if (!rows[0]) {
        throw new HopError('CONFLICT', 'an account with this e-mail already exists', { field: 'email' });
      }
      return issue(toUser(rows[0]));
    },

    /** Every account-password check goes through here, and so through the one limiter. */
    async login(body: LoginBody): Promise<AuthResult> {
      const [row] = await db.query<UserRow>('select * from users where lower(email) = lower($1)', [body.email.trim()]);
      // Hash even when the account does not exist, so timing does not tell which e-mails are registered.
      const stored = row?.password_hash ?? (await decoyHash());
      const ok = await checks.check(body.email, () => verifyPassword(body.password, stored));
      if (!row || !ok) throw new HopError('UNAUTHORIZED', 'wrong e-mail or password');
      return issue(toUser(row));
    },

    async get(userId: string): Promise<User> {
      const [row] = await db.query<UserRow>('select id, email, name, created_at from users where id = $1', [userId]);
      if (!row) throw notFound('user');
      return toUser(row);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
