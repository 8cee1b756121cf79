import type { ClickData } from '@hop/shared';
import type { Database, Queryable } from '../../db/database.js';
import { committedBound } from '../clicks/click-aggregation.js';
import { eventInterest } from './event-interest.js';
import type { EventOutbox, NewEvent } from './event-outbox.js';

/** Producers of the fleet take turns through this advisory lock (one writes a range at a time). */
export const CLICK_EVENTS_LOCK = 72_410_302;

/**
 * Click ids per run. A run's cost is mostly per click (an event and its deliveries), but its fixed
 * part (the gate, the interest, the cursor) and its commit are shared by the whole range.
 */
const MAX_IDS_PER_RUN = { postgres: 10_000, embedded: 2_000 } as const;

/**
 * The visits of the click log as link.clicked / qr.scanned need them: the log keeps which
 * destination served each visit (`target`), the link keeps what that destination is.
 */
const RANGE_SQL = `select c.id, c.workspace_id, c.link_id, c.qr_id, c.source, c.clicked_at, c.country, c.city, c.device,
    c.browser, c.os, c.referrer, c.is_bot, c.target, l.slug, l.domain,
    coalesce(case
      when c.target = 'ios' then l.ios
      when c.target = 'android' then l.android
      when c.target like 'rule:%' then l.rules -> (substr(c.target, 6)::int) ->> 'url'
      when c.target like 'variant:%' then l.variants -> (substr(c.target, 9)::int) ->> 'url'
    end, l.url) as destination
  from clicks c join links l on l.id = c.link_id
  where c.id > $1 and c.id <= $2 and c.workspace_id = any($3::text[])
  order by c.id`;

interface ClickRow {
  id: number; workspace_id: string; link_id: string; qr_id: string | null; source: string; clicked_at: Date;
  country: string | null; city: string | null; device: ClickData['device']; browser: string | null; os: string | null;
  referrer: string | null; is_bot: boolean; target: string; slug: string; domain: string; destination: string;
}

export interface ProducerRun {
  /** The range of click ids this run covered: (from, to]. */
  from: number;
  to: number;
  /** Events written. */
  events: number;
  /** Committed clicks wait past `to` (the run stopped at its size). */
  more: boolean;
  /** Another producer of the fleet held the lock: this one did nothing. */
  skipped: boolean;
}

/**
 * Produces link.clicked and qr.scanned from the click log, off the redirect's path: each run reads
 * the committed clicks after the cursor (up to the click log's gate, a range no later commit can
 * add to, as the aggregation job reads it), writes an event and its deliveries for each click whose
 * workspace wants it (a webhook subscribed, or a live stream open), and moves the cursor in the
 * same transaction: every click becomes an event once, or, after a failed run, its range is read
 * again by the next (docs/adr/, "Click events come from the click log").
 */
export function createClickEventProducer(deps: { db: Database; outbox: EventOutbox; maxIdsPerRun?: number }) {
  const { db, outbox } = deps;
  const maxIds = deps.maxIdsPerRun ?? MAX_IDS_PER_RUN[db.kind];

  /** Whether clicks were appended past the cursor (an over-estimate: a rolled-back batch leaves a gap). Waits for nothing. */
  async function pending(q: Queryable = db): Promise<number> {
    const [r] = await q.query<{ n: number | null }>(
      `select pg_sequence_last_value(pg_get_serial_sequence('clicks', 'id')::regclass) - last_id as n from click_event_cursor`,
    );
    return Math.max(0, Number(r?.n ?? 0));
  }

  /** One run over at most `limit` click ids (never more than the run's size). */
  async function run(limit = maxIds): Promise<ProducerRun> {
    limit = Math.min(limit, maxIds);
    return db.transaction(async (tx) => {
      const [{ locked }] = await tx.query<{ locked: boolean }>('select pg_try_advisory_xact_lock($1) as locked', [CLICK_EVENTS_LOCK]);
      if (!locked) return { from: 0, to: 0, events: 0, more: false, skipped: true };
      const [c] = await tx.query<{ last_id: number }>('select last_id from click_event_cursor');
      const from = Number(c.last_id);
      const bound = await committedBound(tx);
      const to = Math.max(from, Math.min(bound, from + limit));
      const more = to < bound;
      if (to === from) return { from, to, events: 0, more, skipped: false };
      // Who wants click events as of now, read in this transaction: a stream opened a moment ago
      // gets the clicks that follow its opening, whichever process it opened in.
      const wants = await eventInterest(tx);
      const workspaces = wants.workspaces(['link.clicked', 'qr.scanned']);
      const events: NewEvent[] = [];
      if (workspaces.length) {
        // The range is found through the log's BRIN index on id, never by scanning the month.
        await tx.query(`select set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`);
        const rows = await tx.query<ClickRow>(RANGE_SQL, [from, to, workspaces]);
        for (const r of rows) {
          const qrId = r.source === 'qr' ? r.qr_id : null;
          const type = qrId ? 'qr.scanned' : 'link.clicked';
          if (!wants.has(r.workspace_id, type)) continue;
          const at = r.clicked_at;
          const data: ClickData = {
            linkId: r.link_id, slug: r.slug, destination: r.destination, domain: r.domain, clickedAt: at.toISOString(),
            country: r.country, city: r.city, device: r.device, browser: r.browser, os: r.os, referrer: r.referrer,
            isBot: r.is_bot, target: r.target,
          };
          events.push(qrId
            ? { workspaceId: r.workspace_id, at, type: 'qr.scanned', data: { ...data, qrId } }
            : { workspaceId: r.workspace_id, at, type: 'link.clicked', data });
        }
        await outbox.emitMany(tx, events);
      }
      await tx.query('update click_event_cursor set last_id = $1', [to]);
      return { from, to, events: events.length, more, skipped: false };
    });
  }

  return { run, pending };
}

export type ClickEventProducer = ReturnType<typeof createClickEventProducer>;
