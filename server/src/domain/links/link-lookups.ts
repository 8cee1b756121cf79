import { HopError } from '../errors.js';
import type { RedirectLink, RedirectLinks } from './redirect-links.js';

/** Slugs per statement: an array scan of the unique index, one round trip for a burst of misses. */
const MAX_SLUGS_PER_QUERY = 500;

interface Lookup {
  domain: string;
  slug: string;
  key: string;
  /** performance.now() when it was first asked for. */
  since: number;
  /** In a statement already: a change to the link may have come after its read. */
  sent: boolean;
  promise: Promise<RedirectLink | null>;
  resolve(link: RedirectLink | null): void;
  reject(err: unknown): void;
}

/** A lookup that took longer than the timeout: the visit answers 503 with Retry-After. */
export class LookupTimeoutError extends HopError {
  constructor(seconds: number) {
    super('SERVICE_UNAVAILABLE', 'the database is slow to answer: try again shortly', { retryAfter: Math.max(1, Math.ceil(seconds)) });
  }
}

/**
 * The redirector's cache misses, as few statements as possible: one lookup per domain and slug in
 * flight however many visitors ask for it at once (each waits for the same answer), and every
 * slug that missed while a statement was out goes in the next one (`slug = any($2)`). Misses of a
 * cold start arrive in bursts; one by one they would queue for the database's connections (or the
 * embedded database's single session) and each pay a round trip.
 *
 * A caller waits at most `timeoutMs` and then gets a LookupTimeoutError; the statement goes on,
 * and a later visit of the same link joins it. How long the oldest unanswered lookup has waited is
 * a metric: a database or worker that stalls shows there before visitors time out.
 */
export function createLinkLookups(deps: {
  links: Pick<RedirectLinks, 'findMany'>;
  /** Statements out at once: more overlap round trips, fewer batch more slugs each. */
  concurrency: number;
  timeoutMs: number;
}) {
  const { links, concurrency, timeoutMs } = deps;
  /** Lookups a new caller may join, by key; a lookup leaves on settling or on `invalidate`. */
  const joinable = new Map<string, Lookup>();
  /** Every lookup not yet settled, oldest first (insertion order). */
  const open = new Set<Lookup>();
  let queued: Lookup[] = [];
  let running = 0;
  let scheduled = false;
  let queries = 0;
  let asked = 0;
  let coalesced = 0;
  let timeouts = 0;

  function settle(l: Lookup, link: RedirectLink | null | Error) {
    open.delete(l);
    if (joinable.get(l.key) === l) joinable.delete(l.key);
    if (link instanceof Error) l.reject(link);
    else l.resolve(link);
  }

  async function send(domain: string, batch: Lookup[]) {
    queries++;
    try {
      const found = await links.findMany(domain, batch.map((l) => l.slug));
      const bySlug = new Map(found.map((link) => [link.slug, link]));
      for (const l of batch) settle(l, bySlug.get(l.slug) ?? null);
    } catch (err) {
      for (const l of batch) settle(l, err as Error);
    }
  }

  /** Sends what waits, up to the concurrency, the slugs of one domain together. */
  function pump() {
    scheduled = false;
    while (running < concurrency && queued.length > 0) {
      const domain = queued[0].domain;
      const batch: Lookup[] = [];
      const rest: Lookup[] = [];
      for (const l of queued) (l.domain === domain && batch.length < MAX_SLUGS_PER_QUERY ? batch : rest).push(l);
      queued = rest;
      for (const l of batch) l.sent = true;
      running++;
      void send(domain, batch).finally(() => {
        running--;
        pump();
      });
    }
  }

  function lookup(domain: string, slug: string): Lookup {
    const key = `${domain} ${slug}`;
    const joined = joinable.get(key);
    if (joined) {
      coalesced++;
      return joined;
    }
    let resolve!: Lookup['resolve'];
    let reject!: Lookup['reject'];
    const promise = new Promise<RedirectLink | null>((res, rej) => ((resolve = res), (reject = rej)));
    const l: Lookup = { domain, slug, key, since: performance.now(), sent: false, promise, resolve, reject };
    asked++;
    joinable.set(key, l);
    open.add(l);
    queued.push(l);
    // After the I/O callbacks of this turn of the event loop: the misses that arrived together go
    // out together.
    if (!scheduled) {
      scheduled = true;
      setImmediate(pump);
    }
    return l;
  }

  return {
    /** The link at `domain`/`slug`, or null; rejects with LookupTimeoutError after `timeoutMs`. */
    find(domain: string, slug: string): Promise<RedirectLink | null> {
      const l = lookup(domain, slug);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          timeouts++;
          reject(new LookupTimeoutError(timeoutMs / 1000));
        }, timeoutMs);
        l.promise.then(resolve, reject).finally(() => clearTimeout(timer));
      });
    },
    /**
     * A link changed: lookups already sent may have read it before the change, so no new caller
     * joins them (the cache's generation keeps their answers out of it).
     */
    invalidate() {
      for (const [key, l] of joinable) if (l.sent) joinable.delete(key);
    },
    /** Seconds the oldest unanswered lookup has waited; 0 when none waits. */
    oldestPendingSeconds(): number {
      const oldest = open.values().next().value;
      return oldest ? (performance.now() - oldest.since) / 1000 : 0;
    },
    stats: () => ({ pending: open.size, queries, asked, coalesced, timeouts }),
  };
}

export type LinkLookups = ReturnType<typeof createLinkLookups>;
