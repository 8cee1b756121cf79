import type { AuthResult, LoginBody, Me, SignupBody, User } from '@hop/shared';
import type { Database, Queryable } from '../../db/database.js';
import { HopError, notFound } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { decoyHash, hashPassword, verifyPassword } from '../passwords.js';
import { iso } from '../timestamps.js';
import type { Sessions } from '../auth/sessions-service.js';
import type { PasswordChecks } from '../auth/password-checks.js';
import { requireStrongPassword } from '../auth/password-strength.js';
import type { Operator } from './operator.js';
import { normaliseEmail } from './account-email.js';
import type { SignupPolicy } from './signup-policy.js';

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

/** Where a sign-in comes from, kept with its session (the sessions list shows it). */
export interface SignInContext {
  userAgent?: string;
}

export function createUsersService(deps: {
  db: Database;
  newId: IdGenerator;
  sessions: Sessions;
  checks: PasswordChecks;
  operator: Operator;
  /** Who may sign up (HOP_SIGNUP). */
  signupPolicy: SignupPolicy;
  /** Joins the new account to an invite's workspace, in the sign-up's transaction (members-service). */
  claimInvite: (tx: Queryable, userId: string, token: string) => Promise<string>;
}) {
  const { db, newId, sessions, checks, operator, signupPolicy, claimInvite } = deps;

  async function issue(user: User, ctx: SignInContext): Promise<AuthResult> {
    const { token, expiresAt } = await sessions.start(user.id, ctx.userAgent);
    return { user, token, expiresAt: iso(expiresAt) };
  }

  return {
    /** A new account, as HOP_SIGNUP allows; with an invite, a member of its workspace too (all or nothing). */
    async signup(body: SignupBody, ctx: SignInContext = {}): Promise<AuthResult> {
      requireStrongPassword('password', body.password, body.email);
      const passwordHash = await hashPassword(body.password);
      const user = await db.transaction(async (tx) => {
        await signupPolicy.check(tx, body.inviteToken);
        const [row] = await tx.query<UserRow>(
          `insert into users (id, email, name, password_hash) values ($1, $2, $3, $4)
           on conflict do nothing returning *`,
          [newId('usr'), body.email.trim(), body.name, passwordHash],
        );
        if (!row) throw new HopError('CONFLICT', 'an account with this e-mail already exists', { field: 'email' });
        if (body.inviteToken) await claimInvite(tx, row.id, body.inviteToken);
        return toUser(row);
      });
      return issue(user, ctx);
    },

    /** Every account-password check goes through here, and so through the one limiter. */
    async login(body: LoginBody, ctx: SignInContext = {}): Promise<AuthResult> {
      const [row] = await db.query<UserRow>('select * from users where lower(email) = $1', [normaliseEmail(body.email)]);
      // Hash even when the account does not exist, so timing does not tell which e-mails are registered.
      const stored = row?.password_hash ?? (await decoyHash());
      // The lockout counts on the account found, however its address was spelled.
      const ok = await checks.check(row ? { userId: row.id } : body.email, () => verifyPassword(body.password, stored));
      if (!row || !ok) throw new HopError('UNAUTHORIZED', 'wrong e-mail or password');
      return issue(toUser(row), ctx);
    },

    async get(userId: string): Promise<User> {
      const [row] = await db.query<UserRow>('select id, email, name, created_at from users where id = $1', [userId]);
      if (!row) throw notFound('user');
      return toUser(row);
    },

    async me(userId: string): Promise<Me> {
      return { ...(await this.get(userId)), isOperator: await operator.is(userId) };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
