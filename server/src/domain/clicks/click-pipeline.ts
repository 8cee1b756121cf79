import type { Database, Queryable } from '../../db/database.js';
import { describeVisit, type VisitDetails } from './visit-details.js';
import { utcDay } from './visitor-salts.js';

/** A visit as the redirector saw it: already hashed, never holding the IP. */
export interface Visit {
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
  userAgent: string;
  referer: string | undefined;
  isBot: boolean;
  /** The redirector already added this visit to `links.clicks` (links with a click limit). */
  counted: boolean;
}

export type RecordedClick = Omit<Visit, 'userAgent' | 'referer'> & VisitDetails & { city: string | null };

const MAX_BATCH = 2000;
/** If the database stays down, the buffer keeps at most this many visits, dropping the oldest. */
const MAX_BUFFERED = 200_000;

const ROLLUP_DIMENSIONS = ['country', 'device', 'browser', 'os', 'referrer'] as const;

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
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const listeners: ((clicks: RecordedClick[]) => Promise<void> | void)[] = [];

  async function writeBatch(tx: Queryable, visits: Visit[]): Promise<RecordedClick[]> {
    const clicks: RecordedClick[] = visits.map(({ userAgent, referer, ...v }) => ({
      ...v, ...describeVisit(userAgent, referer), city: null,
    }));
    const col = <K extends keyof RecordedClick>(k: K) => clicks.map((c) => c[k]);
    // Joining on links skips visits to links deleted since the redirect. `isBot` goes as text: postgres.js
    // types a JS boolean array as a scalar boolean, which PostgreSQL will not cast to boolean[]; and
    // it must stay text[] until unnested, since postgres.js sends ['false', 'true'] as a boolean[]
    // of [false, false] (every bot was stored as a human). Each element is cast on its own.
    await tx.query(
      `insert into clicks (link_id, workspace_id, qr_id, source, clicked_at, visitor_hash, country, city, device,
         browser, os, referrer, is_bot)
       select v.link_id, v.workspace_id, v.qr_id, v.source, v.clicked_at, v.visitor_hash, v.country, v.city, v.device,
         v.browser, v.os, v.referrer, v.is_bot::boolean
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[],
         $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[])
         as v(link_id, workspace_id, qr_id, source, clicked_at, visitor_hash, country, city, device, browser, os, referrer, is_bot)
       join links l on l.id = v.link_id`,
      [col('linkId'), col('workspaceId'), col('qrId'), col('source'), clicks.map((c) => c.at.toISOString()),
        col('visitorHash'), col('country'), col('city'), col('device'), col('browser'), col('os'), col('referrer'), col('isBot').map(String)],
    );

    await deps.emitEvents?.(tx, clicks);

    const humans = clicks.filter((c) => !c.isBot);
    if (humans.length === 0) return clicks;
    const days = humans.map((c) => utcDay(c.at));
    const fresh = await tx.query<{ link_id: string; day: string; visitor_hash: string }>(
      `insert into daily_visitors (link_id, day, visitor_hash)
       select * from unnest($1::text[], $2::date[], $3::text[]) on conflict do nothing
       returning link_id, day::text as day, visitor_hash`,
      [humans.map((c) => c.linkId), days, humans.map((c) => c.visitorHash)],
    );
    const freshKeys = new Set(fresh.map((r) => `${r.link_id}|${r.day}|${r.visitor_hash}`));

    const rollups = new Map<string, { link: string; ws: string; day: string; dim: string; key: string; clicks: number; uniques: number }>();
    const bump = (c: RecordedClick, day: string, dim: string, key: string, unique: boolean) => {
      const id = `${c.linkId}|${day}|${dim}|${key}`;
      const r = rollups.get(id) ?? { link: c.linkId, ws: c.workspaceId, day, dim, key, clicks: 0, uniques: 0 };
      r.clicks += 1;
      if (unique) r.uniques += 1;
      rollups.set(id, r);
    };
    humans.forEach((c, i) => {
      const visitorKey = `${c.linkId}|${days[i]}|${c.visitorHash}`;
      // The first visit of a visitor on a day is its unique one, in every breakdown alike.
      const unique = freshKeys.delete(visitorKey);
      bump(c, days[i], 'total', '', unique);
      for (const dim of ROLLUP_DIMENSIONS) bump(c, days[i], dim, c[dim] ?? '', unique);
    });
    const rs = [...rollups.values()];
    await tx.query(
      `insert into click_rollups (link_id, workspace_id, day, dimension, key, clicks, uniques)
       select v.* from unnest($1::text[], $2::text[], $3::date[], $4::text[], $5::text[], $6::int[], $7::int[])
         as v(link_id, workspace_id, day, dimension, key, clicks, uniques)
       join links l on l.id = v.link_id
       on conflict (link_id, day, dimension, key) do update
         set clicks = click_rollups.clicks + excluded.clicks, uniques = click_rollups.uniques + excluded.uniques`,
      [rs.map((r) => r.link), rs.map((r) => r.ws), rs.map((r) => r.day), rs.map((r) => r.dim), rs.map((r) => r.key),
        rs.map((r) => r.clicks), rs.map((r) => r.uniques)],
    );

    const counts = new Map<string, number>();
    for (const c of humans) if (!c.counted) counts.set(c.linkId, (counts.get(c.linkId) ?? 0) + 1);
    if (counts.size) {
      await tx.query(
        `update links set clicks = links.clicks + v.n
         from (select unnest($1::text[]) as id, unnest($2::int[]) as n) v where links.id = v.id`,
        [[...counts.keys()], [...counts.values()]],
      );
    }
    return clicks;
  }

  async function flushNow(): Promise<void> {
    while (buffer.length > 0) {
      const batch = buffer.slice(0, MAX_BATCH);
      const recorded = await db.transaction((tx) => writeBatch(tx, batch));
      // Only now is the batch safe in the database; until then a failure leaves it buffered.
      buffer = buffer.slice(batch.length);
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
      if (buffer.length > MAX_BUFFERED) {
        const dropped = buffer.splice(0, buffer.length - MAX_BUFFERED);
        deps.onDropped?.(dropped.length);
      }
    },
    get depth() {
      return buffer.length;
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
