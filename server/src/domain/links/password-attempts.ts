import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { utcDay } from '../clicks/visitor-salts.js';

/** 5 failures in a minute lock a visitor out of a link for a minute; 30 in an hour, for an hour. */
export const LOCKOUT_RULES = [
  { failures: 5, windowMs: 60_000 },
  { failures: 30, windowMs: 3_600_000 },
] as const;

/**
 * Failed password attempts per visitor and link, in the database so every server process sees
 * the same lockouts. Each failure also counts in analytics as `failedPasswordAttempts`.
 */
export function createPasswordAttempts(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  return {
    /** Seconds until the visitor may try again, or 0 when not locked out. */
    async lockedFor(linkId: string, visitor: string): Promise<number> {
      const now = clock.now().getTime();
      const rows = await db.query<{ failed_at: Date }>(
        `select failed_at from password_failures where link_id = $1 and visitor_hash = $2 and failed_at > $3
         order by failed_at desc limit 30`,
        [linkId, visitor, new Date(now - 3_600_000)],
      );
      let until = 0;
      for (const rule of LOCKOUT_RULES) {
        // Locked while the rule's Nth most recent failure is within its window.
        const nth = rows[rule.failures - 1];
        if (nth && now - nth.failed_at.getTime() < rule.windowMs) {
          until = Math.max(until, rows[0].failed_at.getTime() + rule.windowMs);
        }
      }
      return until > now ? Math.ceil((until - now) / 1000) : 0;
    },

    async recordFailure(link: { id: string; workspaceId: string }, visitor: string): Promise<void> {
      const at = clock.now();
      await db.transaction(async (tx) => {
        await tx.query('insert into password_failures (link_id, visitor_hash, failed_at) values ($1, $2, $3)', [link.id, visitor, at]);
        await tx.query(
          `insert into click_rollups (link_id, workspace_id, day, dimension, key, clicks, uniques)
           values ($1, $2, $3, 'password_failures', '', 1, 0)
           on conflict (link_id, day, dimension, key) do update set clicks = click_rollups.clicks + 1`,
          [link.id, link.workspaceId, utcDay(at)],
        );
      });
    },

    /** Failures older than the longest window no longer matter. */
    async purge(): Promise<number> {
      const rows = await db.query('delete from password_failures where failed_at < $1 returning 1', [
        new Date(clock.now().getTime() - 3_600_000),
      ]);
      return rows.length;
    },
  };
}

export type PasswordAttempts = ReturnType<typeof createPasswordAttempts>;
