import { createHmac } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { HopError } from '../errors.js';
import { lookback, refusedForSeconds, type AttemptRule } from './attempt-windows.js';

/** At most 30 account-password checks a minute from one address, right or wrong. */
export const ADDRESS_RULE: AttemptRule = { count: 30, windowMs: 60_000 };
/** 10 wrong passwords in 15 minutes lock the account for 15 minutes, the right password included. */
export const ACCOUNT_RULE: AttemptRule = { count: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/** Where a check comes from: the client address (as the API layer trusts it). */
export interface CheckOrigin {
  ip: string;
}

export interface PasswordChecksOptions {
  db: Database;
  clock: Clock;
  /** Keys the hashes of addresses and e-mails, so the table holds neither. */
  secret: string;
  /**
   * Multiplies the per-address count (HOP_RATE_LIMIT_SCALE: the test suite logs in a lot from
   * 127.0.0.1); null switches the address limit off (HOP_RATE_LIMITS=off, benchmarks only).
   * The account lockout is never scaled nor switched off.
   */
  addressScale?: number | null;
}

/**
 * The one limiter in front of every check of an account password (`/v1/auth/login`, the OAuth
 * sign-in form, any later form that takes one). Both windows live in the database, so every
 * process of a fleet shares them, and each check takes its place before its hash runs, under an
 * advisory lock per key: a burst of concurrent guesses is counted exactly, never raced past.
 * Unknown e-mails are counted like real ones, so a lockout reveals nothing about who has an account.
 */
export function createPasswordChecks(opts: PasswordChecksOptions) {
  const { db, clock } = opts;
  const scale = opts.addressScale === undefined ? 1 : opts.addressScale;
  const addressRule = scale === null ? null : { ...ADDRESS_RULE, count: Math.max(1, Math.round(ADDRESS_RULE.count * scale)) };
  const keyOf = (kind: 'addr' | 'acct', value: string) =>
    `${kind}:${createHmac('sha256', opts.secret).update(`password-checks\u0000${value}`).digest('base64url').slice(0, 32)}`;

  /** Takes a place under `key` unless its rule refuses; answers the row, or the seconds to wait. */
  async function take(tx: Queryable, key: string, rule: AttemptRule, now: number): Promise<string | number> {
    await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
    // The newest check and the rule's nth newest: all the rule needs, however large its count.
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
  }

  function refuse(seconds: number, why: string): never {
    const resetAt = new Date(clock.now().getTime() + seconds * 1000).toISOString();
    throw new HopError('RATE_LIMIT_EXCEEDED', `${why}; try again after ${resetAt} (in ${seconds} s)`, { retryAfter: seconds, resetAt });
  }

  return {
    /**
     * Runs `verify` (the slow hash) if both windows allow a check now, else throws 429 with
     * `retryAfter`. A wrong password keeps its place in the account's window; a right one gives it back.
     */
    async check(origin: CheckOrigin, email: string, verify: () => Promise<boolean>): Promise<boolean> {
      const account = keyOf('acct', email.trim().toLowerCase());
      const taken = await db.transaction(async (tx): Promise<{ wait: number; why: string } | { row: string }> => {
        const now = clock.now().getTime();
        const address = keyOf('addr', origin.ip);
        const addr = addressRule ? await take(tx, address, addressRule, now) : null;
        if (typeof addr === 'number') return { wait: addr, why: 'too many password attempts from this address' };
        const acct = await take(tx, account, ACCOUNT_RULE, now);
        if (typeof acct === 'number') {
          // A refused check was never made: it does not use up the address's allowance.
          if (addr) await tx.query('delete from password_checks where ctid = $1::tid and key = $2', [addr, address]);
          return { wait: acct, why: 'too many wrong passwords for this account' };
        }
        return { row: acct };
      });
      if ('wait' in taken) refuse(taken.wait, taken.why);
      const ok = await verify();
      if (ok) await db.query('delete from password_checks where ctid = $1::tid and key = $2', [taken.row, account]);
      return ok;
    },

    /** Checks older than the longest window no longer matter (the retention job). */
    async purge(): Promise<number> {
      const oldest = new Date(clock.now().getTime() - lookback([ADDRESS_RULE, ACCOUNT_RULE]));
      return (await db.query('delete from password_checks where checked_at < $1 returning 1', [oldest])).length;
    },
  };
}

export type PasswordChecks = ReturnType<typeof createPasswordChecks>;
