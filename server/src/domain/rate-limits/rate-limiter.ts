import type { CounterStore } from './counter-store.js';

export type WindowName = '1m' | '1h';

/** One limit to check: `limit` requests per window of `windowMs`, counted under `key`. */
export interface Bucket {
  key: string;
  limit: number;
  window: WindowName;
  windowMs: number;
}

/** Where a bucket stands after a request: what the X-RateLimit-* headers report. */
export interface BucketStatus {
  limit: number;
  remaining: number;
  window: WindowName;
  /** End of the current window, ms since the epoch. */
  resetAt: number;
}

export interface Decision {
  allowed: boolean;
  /** The tighter bucket (fewest remaining), or the one that refused; null when the store failed. */
  status: BucketStatus | null;
}

interface LocalState {
  windowStart: number;
  /** Units this process leased from the shared counter and has not spent yet. */
  available: number;
  /** The shared counter as last seen: every process's spent and leased units. */
  shared: number;
  refill?: Promise<void>;
}

/** Whole seconds until a refused caller may try again, at least 1: a Retry-After value. */
export function retryAfterSeconds(resetAt: number | undefined, now = Date.now()): number {
  return Math.max(1, Math.ceil(((resetAt ?? now) - now) / 1000));
}

export interface RateLimiterOptions {
  store: CounterStore;
  now?: () => number;
  /**
   * Share of a limit one process leases from the shared counter at a time (default 1%). A lease
   * turns N requests into one store call; at most a lease per process can go unused at the end
   * of a window, so a fleet of P processes may refuse up to P leases early, never admit more.
   */
  leaseFraction?: number;
  maxLease?: number;
  onStoreError?: (err: unknown) => void;
}

/**
 * Fixed-window counters shared through a store, with leases so that the common case (a caller
 * well within its limits) costs no store call at all. Every bucket must allow a request for it to
 * pass, and a refused request spends nothing from the others (unlike a union of independent
 * limiters, which charges all of them).
 */
export function createRateLimiter(opts: RateLimiterOptions) {
  const { store } = opts;
  const now = opts.now ?? Date.now;
  const leaseFraction = opts.leaseFraction ?? 0.01;
  const maxLease = opts.maxLease ?? 1000;
  const states = new Map<string, LocalState>();
  let lastSweep = 0;

  const leaseFor = (limit: number) => Math.max(1, Math.min(maxLease, Math.floor(limit * leaseFraction)));
  const stateKey = (b: Bucket) => `${b.key}:${b.window}`;
  const windowStart = (b: Bucket, t: number) => Math.floor(t / b.windowMs) * b.windowMs;

  function stateOf(b: Bucket, t: number): LocalState {
    const start = windowStart(b, t);
    let s = states.get(stateKey(b));
    if (!s || s.windowStart !== start) {
      s = { windowStart: start, available: 0, shared: 0 };
      states.set(stateKey(b), s);
    }
    return s;
  }

  function sweep(t: number) {
    if (t - lastSweep < 60_000) return;
    lastSweep = t;
    for (const [k, s] of states) if (s.windowStart + 3_600_000 * 2 < t && !s.refill) states.delete(k);
  }

  /** Leases units for the buckets that have none left (and could still get some), in one call. */
  function refill(pairs: [Bucket, LocalState][]): Promise<void> {
    const sized = pairs.map(([b, s]) => ({ b, s, n: leaseFor(b.limit) }));
    const p = store
      .add(sized.map(({ b, s, n }) => ({ key: stateKey(b), windowStart: s.windowStart, windowMs: b.windowMs, n })))
      .then((totals) => {
        sized.forEach(({ b, s, n }, i) => {
          const before = totals[i] - n;
          s.available += Math.max(0, Math.min(n, b.limit - before));
          s.shared = Math.max(s.shared, totals[i]);
        });
      })
      .finally(() => sized.forEach(({ s }) => {
        if (s.refill === p) s.refill = undefined;
      }));
    sized.forEach(({ s }) => (s.refill = p));
    return p;
  }

  const statusOf = (b: Bucket, s: LocalState): BucketStatus => ({
    limit: b.limit,
    remaining: Math.max(0, Math.min(b.limit, b.limit - (s.shared - s.available))),
    window: b.window,
    resetAt: s.windowStart + b.windowMs,
  });

  return {
    /** Spends one request from every bucket, or from none when one of them is exhausted. */
    async consume(buckets: Bucket[]): Promise<Decision> {
      const t = now();
      sweep(t);
      const pairs = buckets.map((b) => [b, stateOf(b, t)] as [Bucket, LocalState]);
      try {
        for (let round = 0; round < 4; round++) {
          const empty = pairs.filter(([b, s]) => s.available < 1 && s.shared < b.limit);
          if (!empty.length) break;
          // A lease of several units in flight for a bucket will likely cover this request too:
          // wait for it (twice at most) rather than lease again. Single-unit leases never wait.
          const wait = round < 2 ? empty.filter(([b, s]) => s.refill && leaseFor(b.limit) > 1) : [];
          const mine = empty.filter((pair) => !wait.includes(pair));
          await Promise.all([...wait.map(([, s]) => s.refill), mine.length ? refill(mine) : undefined]);
        }
      } catch (err) {
        // The store is down: let the request through rather than fail the whole API.
        opts.onStoreError?.(err);
        return { allowed: true, status: null };
      }
      const refusing = pairs.find(([, s]) => s.available < 1);
      if (refusing) return { allowed: false, status: statusOf(...refusing) };
      for (const [, s] of pairs) s.available -= 1;
      const statuses = pairs.map(([b, s]) => statusOf(b, s));
      const tightest = statuses.reduce((a, c) => (c.remaining < a.remaining || (c.remaining === a.remaining && c.resetAt < a.resetAt) ? c : a));
      return { allowed: true, status: tightest };
    },

    /** Where the buckets stand, from the shared counters, without spending anything. */
    async peek(buckets: Bucket[]): Promise<BucketStatus[]> {
      const t = now();
      const refs = buckets.map((b) => ({ key: stateKey(b), windowStart: windowStart(b, t), windowMs: b.windowMs }));
      const totals = await store.get(refs);
      return buckets.map((b, i) => {
        const local = states.get(stateKey(b));
        const unspent = local && local.windowStart === refs[i].windowStart ? local.available : 0;
        return statusOf(b, { windowStart: refs[i].windowStart, available: unspent, shared: totals[i] });
      });
    },

    close: () => store.close(),
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
