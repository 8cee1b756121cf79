import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { utcDay } from '../clicks/visitor-salts.js';
import { attemptsNeeded, lookback, refusedForSeconds, type AttemptRule } from '../auth/attempt-windows.js';
import type { EventOutbox } from '../events/event-outbox.js';

/** 5 failures in a minute lock a visitor out of a link for a minute; 30 in an hour, for an hour. */
export const LOCKOUT_RULES: readonly AttemptRule[] = [
  { count: 5, windowMs: 60_000, lockMs: 60_000 },
  { count: 30, windowMs: 3_600_000, lockMs: 3_600_000 },
];

/**
 * The link's own cap, whatever the source: wrong passwords from every visitor together close the
 * form to everyone, for longer each time the guessing goes on (10 minutes, an hour, a day). A
 * visitor is whatever address it comes from (an IPv6 client by its /64), and an attacker with
 * many addresses still meets this cap; the owner hears of each lock (`link.password_locked`).
 * One visitor alone never trips it (its own rules let through at most 30 an hour, 720 a day):
 * closing a form to everyone takes many sources.
 */
export const LINK_LOCKOUT_RULES: readonly AttemptRule[] = [
  { count: 50, windowMs: 600_000, lockMs: 600_000 },
  { count: 150, windowMs: 3_600_000, lockMs: 3_600_000 },
  { count: 1000, windowMs: 86_400_000, lockMs: 86_400_000 },
];

/** Failures older than this (a day's window and a day's lock) no longer matter. */
export const LOOKBACK_MS = Math.max(lookback(LOCKOUT_RULES), lookback(LINK_LOCKOUT_RULES));

/** The link a failure belongs to, as the redirector knows it. */
export interface FailedLink {
  id: string;
  workspaceId: string;
  slug: string;
  domain: string;
}

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
export function createPasswordAttempts(deps: { db: Database; clock: Clock; outbox?: EventOutbox }) {
  const { db, clock } = deps;

  async function recent(q: Pick<Database, 'query'>, linkId: string, visitor: string, now: number): Promise<(n: number) => number | undefined> {
    const rows = await q.query<{ failed_at: Date }>(
      `select failed_at from password_failures where link_id = $1 and visitor_hash = $2 and failed_at > $3
       order by failed_at desc limit ${attemptsNeeded(LOCKOUT_RULES)}`,
      [linkId, visitor, new Date(now - LOOKBACK_MS)],
    );
    return (n) => rows[n - 1]?.failed_at.getTime();
  }

  /** The link's newest failure and each link rule's nth newest, from every visitor. */
  async function recentOnLink(q: Pick<Database, 'query'>, linkId: string, now: number): Promise<(n: number) => number | undefined> {
    const counts = [1, ...LINK_LOCKOUT_RULES.map((r) => r.count)];
    const [row] = await q.query<Record<string, Date | null>>(
      `select ${counts.map((n) => `(select failed_at from password_failures where link_id = $1 and failed_at > $2
         order by failed_at desc offset ${n - 1} limit 1) as n${n}`).join(', ')}`,
      [linkId, new Date(now - LOOKBACK_MS)],
    );
    return (n) => row[`n${n}`]?.getTime();
  }

  /** Seconds the visitor must wait: its own lockout, or the link's. */
  async function refused(q: Pick<Database, 'query'>, linkId: string, visitor: string, now: number): Promise<number> {
    const [own, link] = await Promise.all([recent(q, linkId, visitor, now), recentOnLink(q, linkId, now)]);
    return Math.max(refusedForSeconds(own, LOCKOUT_RULES, now), refusedForSeconds(link, LINK_LOCKOUT_RULES, now));
  }

  return {
    /** Seconds until the visitor may try again, or 0 when not locked out. */
    async lockedFor(linkId: string, visitor: string): Promise<number> {
      return refused(db, linkId, visitor, clock.now().getTime());
    },

    /** Takes a place in the window for one check, or answers how long the visitor is locked out. */
    async reserve(linkId: string, visitor: string): Promise<{ attempt: Attempt } | { lockedFor: number }> {
      return db.transaction(async (tx) => {
        // One lock per link: the link's cap counts every visitor's checks exactly too.
        await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`link-password:${linkId}`]);
        const now = clock.now().getTime();
        const lockedFor = await refused(tx, linkId, visitor, now);
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

    /**
     * The password was wrong: the place stays taken, analytics count the failure and, when this
     * failure closed the link's form to everyone, the owner is told once (`link.password_locked`).
     */
    async recordFailure(link: FailedLink): Promise<void> {
      await db.transaction(async (tx) => {
        const now = clock.now();
        await tx.query(
          `insert into click_rollups (link_id, workspace_id, day, dimension, key, clicks, uniques)
           values ($1, $2, $3, 'password_failures', '', 1, 0)
           on conflict (link_id, day, dimension, key) do update set clicks = click_rollups.clicks + 1`,
          [link.id, link.workspaceId, utcDay(now)],
        );
        if (!deps.outbox) return;
        await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`link-password:${link.id}`]);
        const nthNewest = await recentOnLink(tx, link.id, now.getTime());
        const seconds = refusedForSeconds(nthNewest, LINK_LOCKOUT_RULES, now.getTime());
        if (seconds === 0) return;
        // One event per lock: none while an announced lock of this link still runs.
        const [announced] = await tx.query(
          `select 1 from events where workspace_id = $1 and type = 'link.password_locked'
             and payload::jsonb -> 'data' -> 'link' ->> 'id' = $2 and (payload::jsonb -> 'data' ->> 'lockedUntil')::timestamptz > $3 limit 1`,
          [link.workspaceId, link.id, now],
        );
        if (announced) return;
        const rule = LINK_LOCKOUT_RULES.filter((r) => {
          const nth = nthNewest(r.count);
          return nth !== undefined && nthNewest(1)! - nth < r.windowMs;
        }).at(-1)!;
        await deps.outbox.emit(tx, {
          workspaceId: link.workspaceId, type: 'link.password_locked', at: now,
          data: {
            link: { id: link.id, slug: link.slug, domain: link.domain },
            failures: rule.count,
            lockedUntil: new Date(now.getTime() + seconds * 1000).toISOString(),
          },
        });
      });
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
