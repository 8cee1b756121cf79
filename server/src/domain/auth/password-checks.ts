import { createHmac } from 'node:crypto';
import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { HopError } from '../errors.js';
import { lookback, refusedForSeconds, type AttemptRule } from './attempt-windows.js';
import { normaliseEmail } from '../users/account-email.js';

/** 10 wrong passwords in 15 minutes lock the account for 15 minutes, the right password included. */
export const ACCOUNT_RULE: AttemptRule = { count: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/** Whose password is checked: the account found, or the e-mail address no account has. */
export type CheckedAccount = { userId: string } | string;

export interface PasswordChecksOptions {
  db: Database;
  clock: Clock;
  /** Keys the hashes of e-mails, so the table holds none. */
  secret: string;
}

/**
 * The account lockout in front of every check of an account password (`/v1/auth/login`, the
 * OAuth sign-in form, any later form that takes one; the per-address allowance of 30 a minute is
 * the anonymous rate limit, which both count against). The window lives in the database, so every
 * process of a fleet shares it, and each check takes its place before its hash runs, under an
 * advisory lock per account: a burst of concurrent guesses is counted exactly, never raced past.
 * Unknown e-mails are counted like real ones, so a lockout reveals nothing about who has an account.
 */
export function createPasswordChecks(opts: PasswordChecksOptions) {
  const { db, clock } = opts;
  const rule = ACCOUNT_RULE;
  // An account is counted by its id, so no spelling of its address opens a window of its own; an
  // address with no account, by its normalised spelling (the one sign-in looks accounts up by).
  const keyOf = (who: CheckedAccount) => {
    const name = typeof who === 'string' ? `email\u0000${normaliseEmail(who)}` : `user\u0000${who.userId}`;
    return `acct:${createHmac('sha256', opts.secret).update(`password-checks\u0000${name}`).digest('base64url').slice(0, 32)}`;
  };

  /** Takes a place under `key` unless the rule refuses; answers the row, or the seconds to wait. */
  async function take(key: string): Promise<string | number> {
    return db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
      const now = clock.now().getTime();
      // The newest failure and the rule's nth newest: all the rule needs.
      const [r] = await tx.query<{ newest: Date | null; nth: Date | null }>(
        `select (select max(checked_at) from password_checks where key = $1 and checked_at > $2) as newest,
                (select checked_at from password_checks where key = $1 and checked_at > $2
                 order by checked_at desc offset $3 limit 1) as nth`,
        [key, new Date(now - lookback([rule])), rule.count - 1],
      );
      const wait = refusedForSeconds((n) => (n === 1 ? r.newest : n === rule.count ? r.nth : null)?.getTime(), [rule], now);
      if (wait > 0) return wait;
      const [row] = await tx.query<{ row: string }>(
        'insert into password_checks (key, checked_at) values ($1, $2) returning ctid::text as row',
        [key, new Date(now)],
      );
      return row.row;
    });
  }

  return {
    /**
     * Runs `verify` (the slow hash) unless the account is locked, else throws 429 with
     * `retryAfter`. A wrong password keeps its place in the account's window; a right one gives it back.
     */
    async check(who: CheckedAccount, verify: () => Promise<boolean>): Promise<boolean> {
      const key = keyOf(who);
      const taken = await take(key);
      if (typeof taken === 'number') {
        const resetAt = new Date(clock.now().getTime() + taken * 1000).toISOString();
        throw new HopError('RATE_LIMIT_EXCEEDED', `too many wrong passwords for this account; try again after ${resetAt} (in ${taken} s)`, {
          retryAfter: taken, resetAt,
        });
      }
      const ok = await verify();
      if (ok) await db.query('delete from password_checks where ctid = $1::tid and key = $2', [taken, key]);
      return ok;
    },

    /** Checks older than the window and its lock no longer matter (the retention job). */
    async purge(): Promise<number> {
      const oldest = new Date(clock.now().getTime() - lookback([rule]));
      return (await db.query('delete from password_checks where checked_at < $1 returning 1', [oldest])).length;
    },
  };
}

export type PasswordChecks = ReturnType<typeof createPasswordChecks>;
