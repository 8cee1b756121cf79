import type { Database, Queryable } from '../../db/database.js';
import type { VisitDetails } from './visit-details.js';

/**
 * A visit as the redirector recorded it: hashed and described already, never holding the IP or
 * the raw headers, so what waits in the buffer is small and is written as it is.
 */
export interface Visit extends VisitDetails {
  linkId: string;
  slug: string;
  domain: string;
  /** The destination the visitor was sent to. */
  destination: string;
  workspaceId: string;
  qrId: string | null;
  source: 'link' | 'qr';
  at: Date;
  visitorHash: string;
  country: string | null;
  city: string | null;
  isBot: boolean;
  /** The redirector already added this visit to `links.clicks` (links with a click limit). */
  counted: boolean;
}

/** A visit once written (the same record). */
export type RecordedClick = Visit;

// Large batches keep up under load: PostgreSQL's cost per click falls as a batch holds more
// clicks of the same links (their rollup rows merge before the upsert). 10,000 visits make about
// 3 MB of JSON; at the usual rates a flush holds far fewer. The embedded database runs each
// statement on this process's own thread, holding up every request meanwhile: smaller there.
const MAX_BATCH = { postgres: 10_000, embedded: 1_000 } as const;
/** If the database stays down, the buffer keeps at most this many visits, dropping the oldest. */
const MAX_BUFFERED = 200_000;
const DROP_CHUNK = 1_000;

const JSON_CHUNK = 1000;

/**
 * The batch as one JSON array, built a thousand visits at a time with the event loop let go in
 * between: a 10,000-visit batch would otherwise hold up every redirect for ~15 ms.
 */
async function batchJson(clicks: Visit[]): Promise<string> {
  const parts: string[] = [];
  for (let i = 0; i < clicks.length; i += JSON_CHUNK) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const chunk = JSON.stringify(clicks.slice(i, i + JSON_CHUNK).map((c) => ({
      link_id: c.linkId, workspace_id: c.workspaceId, qr_id: c.qrId, source: c.source, clicked_at: c.at.toISOString(),
      visitor_hash: c.visitorHash, country: c.country, city: c.city, device: c.device, browser: c.browser, os: c.os,
      referrer: c.referrer, is_bot: c.isBot, counted: c.counted,
    })));
    parts.push(chunk.slice(1, -1));
  }
  return `[${parts.join(',')}]`;
}

/**
 * The click pipeline: the redirect only enqueues; this writes visits in batches (multi-row inserts)
 * at most every `flushEveryMs` and on shutdown, with the daily rollups that analytics read and the
 * click counts of links. Bots are stored, but count nowhere.
 */
export function createClickPipeline(deps: {
  db: Database;
  flushEveryMs: number;
  onError?: (err: unknown) => void;
  onDropped?: (n: number) => void;
  /** Writes link.clicked / qr.scanned events in the batch's own transaction. */
  emitEvents?: (tx: Queryable, clicks: RecordedClick[]) => Promise<void>;
}) {
  const { db, flushEveryMs } = deps;
  let buffer: Visit[] = [];
  /** How many visits the batch being written holds (they are out of `buffer` meanwhile). */
  let inFlight = 0;
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const listeners: ((clicks: RecordedClick[]) => Promise<void> | void)[] = [];

  async function writeBatch(tx: Queryable, clicks: Visit[], rows: string): Promise<RecordedClick[]> {
    // One statement for the batch: the raw clicks, the day's new visitors, the rollups and the
    // links' counts. The batch travels as one JSON text (JSON.stringify is native; per-element
    // array encoding in JS cost more than everything else the process did per visit), and
    // PostgreSQL does the grouping. Joining on links skips visits to links deleted since.
    await tx.query(
      `with v as (
         -- n: the visit's place in the batch (WITH ORDINALITY, fixed by the function itself; a
         -- row_number() here would follow whatever order the join with links left).
         select r.*, (r.clicked_at at time zone 'UTC')::date as day
         from rows from (json_to_recordset($1::text::json) as (link_id text, workspace_id text, qr_id text, source text,
           clicked_at timestamptz, visitor_hash text, country text, city text, device text, browser text, os text,
           referrer text, is_bot boolean, counted boolean)) with ordinality as r(link_id, workspace_id, qr_id, source,
           clicked_at, visitor_hash, country, city, device, browser, os, referrer, is_bot, counted, n)
         where exists (select 1 from links l where l.id = r.link_id)
       ),
       stored as (
         insert into clicks (link_id, workspace_id, qr_id, source, clicked_at, visitor_hash, country, city, device,
           browser, os, referrer, is_bot)
         select link_id, workspace_id, qr_id, source, clicked_at, visitor_hash, country, city, device, browser, os,
           referrer, is_bot
         from v
       ),
       -- Bots are stored, but count nowhere. A unique click is a visitor's first on a link in a UTC day.
       fresh as (
         insert into daily_visitors (link_id, day, visitor_hash)
         select distinct link_id, day, visitor_hash from v where not is_bot
         on conflict do nothing
         returning link_id, day, visitor_hash
       ),
       humans as (
         select v.*, f.visitor_hash is not null
             and row_number() over (partition by v.link_id, v.day, v.visitor_hash order by v.n) = 1 as is_unique
         from v left join fresh f using (link_id, day, visitor_hash)
         where not v.is_bot
       ),
       rolled as (
         insert into click_rollups (link_id, workspace_id, day, dimension, key, clicks, uniques)
         select h.link_id, min(h.workspace_id), h.day, d.dimension, d.key, count(*), count(*) filter (where h.is_unique)
         from humans h cross join lateral (values ('total', ''), ('country', coalesce(h.country, '')),
           ('device', coalesce(h.device, '')), ('browser', coalesce(h.browser, '')), ('os', coalesce(h.os, '')),
           ('referrer', coalesce(h.referrer, ''))) as d(dimension, key)
         group by h.link_id, h.day, d.dimension, d.key
         on conflict (link_id, day, dimension, key) do update
           set clicks = click_rollups.clicks + excluded.clicks, uniques = click_rollups.uniques + excluded.uniques
       )
       -- Links with a click limit were counted by the redirect itself (counted).
       update links set clicks = links.clicks + c.n
       from (select link_id, count(*)::int as n from humans where not counted group by link_id) c
       where links.id = c.link_id`,
      [rows],
    );
    await deps.emitEvents?.(tx, clicks);
    return clicks;
  }

  /**
   * Keeps the visits waiting (buffered and being written) under the cap by dropping the oldest
   * buffered ones, a thousand at a time so a long outage does not shift the array on every visit.
   * A batch being written is never dropped: it is not in `buffer` until it fails.
   */
  function trim() {
    const over = buffer.length + inFlight - MAX_BUFFERED;
    if (over <= 0) return;
    const n = Math.min(buffer.length, Math.max(over, DROP_CHUNK));
    buffer.splice(0, n);
    deps.onDropped?.(n);
  }

  async function flushNow(): Promise<void> {
    while (buffer.length > 0) {
      const batch = buffer.splice(0, MAX_BATCH[db.kind]);
      inFlight = batch.length;
      let recorded: RecordedClick[];
      try {
        // Built before the transaction opens, so no connection waits on it.
        const rows = await batchJson(batch);
        recorded = await db.transaction((tx) => writeBatch(tx, batch, rows));
      } catch (err) {
        // Not written: back at the front, in order, for the next flush.
        inFlight = 0;
        buffer = batch.concat(buffer);
        trim();
        throw err;
      }
      inFlight = 0;
      for (const listener of listeners) await listener(recorded);
    }
  }

  function flush(): Promise<void> {
    flushing ??= flushNow().finally(() => (flushing = undefined));
    return flushing;
  }

  return {
    enqueue(visit: Visit) {
      buffer.push(visit);
      if (buffer.length + inFlight > MAX_BUFFERED) trim();
    },
    get depth() {
      return buffer.length + inFlight;
    },
    /** Called after each batch is written: `link.clicked` and `qr.scanned` events hang here. */
    onRecorded(listener: (clicks: RecordedClick[]) => Promise<void> | void) {
      listeners.push(listener);
    },
    start() {
      timer = setInterval(() => flush().catch((err) => deps.onError?.(err)), flushEveryMs);
      timer.unref();
    },
    /** Stops the timer and writes what is buffered (on shutdown). */
    async stop() {
      if (timer) clearInterval(timer);
      if (flushing) await flushing.catch(() => {});
      await flush();
    },
    flush,
  };
}

export type ClickPipeline = ReturnType<typeof createClickPipeline>;
