import type { Database } from '../../db/database.js';

/** One counter of one fixed window: `key` counted from `windowStart` (ms) for `windowMs`. */
export interface CounterRef {
  key: string;
  windowStart: number;
  windowMs: number;
}

/**
 * Where the counts live, shared by every process: PostgreSQL/PGlite or Redis. Both answer a whole
 * batch in one round trip, so a request costs at most one call whatever its number of counters.
 */
export interface CounterStore {
  /** Adds `n` to each counter and answers the new totals, in order. */
  add(entries: (CounterRef & { n: number })[]): Promise<number[]>;
  /** The current totals, in order (0 for a counter never touched). */
  get(entries: CounterRef[]): Promise<number[]>;
  close(): Promise<void>;
}

const CLEANUP_EVERY_MS = 60_000;

/** Counters in the `rate_limit_counters` table: one upsert statement per batch. */
export function createSqlCounterStore(deps: { db: Database; now?: () => number }): CounterStore {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  let lastCleanup = 0;
  const id = (key: string, windowStart: number) => `${key}\u0001${windowStart}`;

  function cleanup() {
    const t = now();
    if (t - lastCleanup < CLEANUP_EVERY_MS) return;
    lastCleanup = t;
    // Ended windows are never read again; dropping them is housekeeping, not on the request path.
    void db.query('delete from rate_limit_counters where expires_at < now()').catch(() => {});
  }

  return {
    async add(entries) {
      if (!entries.length) return [];
      const rows = await db.query<{ key: string; window_start: string | number; count: number }>(
        `insert into rate_limit_counters (key, window_start, count, expires_at)
         select k, w, n, to_timestamp((w + l) / 1000.0) from unnest($1::text[], $2::int8[], $3::int4[], $4::int8[]) as t(k, w, n, l)
         on conflict (key, window_start) do update set count = rate_limit_counters.count + excluded.count
         returning key, window_start, count`,
        [entries.map((e) => e.key), entries.map((e) => e.windowStart), entries.map((e) => e.n), entries.map((e) => e.windowMs)],
      );
      cleanup();
      const byId = new Map(rows.map((r) => [id(r.key, Number(r.window_start)), Number(r.count)]));
      return entries.map((e) => byId.get(id(e.key, e.windowStart)) ?? 0);
    },
    async get(entries) {
      if (!entries.length) return [];
      const rows = await db.query<{ key: string; window_start: string | number; count: number }>(
        `select c.key, c.window_start, c.count from rate_limit_counters c
         join unnest($1::text[], $2::int8[]) as t(k, w) on c.key = t.k and c.window_start = t.w`,
        [entries.map((e) => e.key), entries.map((e) => e.windowStart)],
      );
      const byId = new Map(rows.map((r) => [id(r.key, Number(r.window_start)), Number(r.count)]));
      return entries.map((e) => byId.get(id(e.key, e.windowStart)) ?? 0);
    },
    async close() {},
  };
}
