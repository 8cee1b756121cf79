import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { utcDay } from '../clicks/visitor-salts.js';
import { attemptsNeeded, lookback, refusedForSeconds, type AttemptRule } from '../auth/attempt-windows.js';

/** 5 failures in a minute lock a visitor out of a link for a minute; 30 in an hour, for an hour. */
export const LOCKOUT_RULES: readonly AttemptRule[] = [
  { count: 5, windowMs: 60_000, lockMs: 60_000 },
  { count: 30, windowMs: 3_600_000, lockMs: 3_600_000 },
];
/** Failures older than this (an hour's window and an hour's lock) no longer matter. */
export const LOOKBACK_MS = lookback(LOCKOUT_RULES);

/** A place taken in the visitor's window for one password check (see `reserve`). */
export interface Attempt {
  linkId: string;
  visitor: string;
  row: string;
}

/**
 * Failed password attempts per visitor and link, in the database so every server process sees
 * the same lockouts. Each failure also counts in analytics as `failedPasswordAttempts`.
 *
 * An attempt takes its place in the window *before* its hash is checked (`reserve`), under a
 * transaction-scoped advisory lock on (link, visitor): 150 concurrent guesses find the window
 * full after the fifth, so at most 5 hashes are checked a minute whatever the concurrency, on one
 * process or many. A right password gives its place back (`release`).
 */
export function createPasswordAttempts(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function recent(q: Pick<Database, 'query'>, linkId: string, visitor: string, now: number): Promise<(n: number) => number | undefined> {
    const rows = await q.query<{ failed_at: Date }>(
      `select failed_at from password_failures where link_id = $1 and visitor_hash = $2 and failed_at > $3
       order by failed_at desc limit ${attemptsNeeded(LOCKOUT_RULES)}`,
      [linkId, visitor, new Date(now - LOOKBACK_MS)],
    );
    return (n) => rows[n - 1]?.failed_at.getTime();
  }

  return {
    /** Seconds until the visitor may try again, or 0 when not locked out. */
    async lockedFor(linkId: string, visitor: string): Promise<number> {
      const now = clock.now().getTime();
      return refusedForSeconds(await recent(db, linkId, visitor, now), LOCKOUT_RULES, now);
    },

    /** Takes a place in the window for one check, or answers how long the visitor is locked out. */
    async reserve(linkId: string, visitor: string): Promise<{ attempt: Attempt } | { lockedFor: number }> {
      return db.transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`link-password:${linkId}:${visitor}`]);
        const now = clock.now().getTime();
        const lockedFor = refusedForSeconds(await recent(tx, linkId, visitor, now), LOCKOUT_RULES, now);
        if (lockedFor > 0) return { lockedFor };
        const [row] = await tx.query<{ row: string }>(
          'insert into password_failures (link_id, visitor_hash, failed_at) values ($1, $2, $3) returning ctid::text as row',
          [linkId, visitor, new Date(now)],
        );
        return { attempt: { linkId, visitor, row: row.row } };
      });
    },

    /** The password was right: the attempt was no failure, and gives its place back. */
    async release(attempt: Attempt): Promise<void> {
      await db.query('delete from password_failures where ctid = $1::tid and link_id = $2 and visitor_hash = $3', [
        attempt.row, attempt.linkId, attempt.visitor,
      ]);
    },

    /** The password was wrong: the place stays taken, and analytics count the failure. */
    async recordFailure(link: { id: string; workspaceId: string }): Promise<void> {
      await db.query(
        `insert into click_rollups (link_id, workspace_id, day, dimension, key, clicks, uniques)
         values ($1, $2, $3, 'password_failures', '', 1, 0)
         on conflict (link_id, day, dimension, key) do update set clicks = click_rollups.clicks + 1`,
        [link.id, link.workspaceId, utcDay(clock.now())],
      );
    },

    /** Failures older than the longest window no longer matter. */
    async purge(): Promise<number> {
      const rows = await db.query('delete from password_failures where failed_at < $1 returning 1', [
        new Date(clock.now().getTime() - LOOKBACK_MS),
      ]);
      return rows.length;
    },
  };
}

export type PasswordAttempts = ReturnType<typeof createPasswordAttempts>;
