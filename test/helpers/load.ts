// Load for fault tests: a few dozen concurrent clients, each repeating one request until stopped,
// with every outcome tallied. Modest on purpose: the suite shares two cores with other tests.
import { request } from 'undici';
import { BROWSER_UA } from './api.js';

export interface Load<T> {
  /** Every outcome so far, in completion order (an Error for a request that got no answer). */
  readonly outcomes: (T | Error)[];
  /** Requests started and not yet answered. */
  readonly inFlight: number;
  /** Stops starting requests and resolves once those in flight have finished. */
  stop(): Promise<(T | Error)[]>;
}

const running = new Set<Load<unknown>>();

/** Stops every load still running (a test's `finally`, after a failure). */
export async function stopLoads(): Promise<void> {
  await Promise.all([...running].map((l) => l.stop()));
}

/**
 * Runs `concurrency` workers, each calling `once(worker, i)` again as soon as it settles, until
 * stopped, or after `maxMs` at the latest: a test that fails before stopping its load must not
 * leave it hammering a dead server for ever.
 */
export function startLoad<T>(concurrency: number, once: (worker: number, i: number) => Promise<T>, maxMs = 45_000): Load<T> {
  const outcomes: (T | Error)[] = [];
  let stopped = false;
  let inFlight = 0;
  const deadline = setTimeout(() => (stopped = true), maxMs);
  deadline.unref();
  const workers = Array.from({ length: concurrency }, async (_, worker) => {
    for (let i = 0; !stopped; i++) {
      inFlight++;
      try {
        outcomes.push(await once(worker, i));
      } catch (err) {
        outcomes.push(err instanceof Error ? err : new Error(String(err)));
      } finally {
        inFlight--;
      }
    }
  });
  const load: Load<T> = {
    outcomes,
    get inFlight() {
      return inFlight;
    },
    async stop() {
      stopped = true;
      clearTimeout(deadline);
      running.delete(load as Load<unknown>);
      await Promise.all(workers);
      return outcomes;
    },
  };
  running.add(load as Load<unknown>);
  return load;
}

/** Opens a short link as a browser would (counted), answering the status; never follows the redirect. */
export async function browserVisit(url: string): Promise<number> {
  const res = await request(url, { headers: { 'user-agent': BROWSER_UA.desktopChrome } });
  await res.body.dump();
  return res.statusCode;
}

/** How many outcomes of each kind: statuses by number, failures by message. */
export function tally(outcomes: (number | Error)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const k = o instanceof Error ? `error: ${o.message}` : String(o);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

/**
 * Waits until `count()` reaches `target`, failing only when it stops growing for `stallMs`. Under
 * load on two shared cores, how fast things flow measures the host (a slow one, with another load
 * test beside it, created links at a tenth of the usual pace); whether they flow at all is the test's.
 */
export async function untilCount(count: () => number, target: number, stallMs: number, what: string, detail = () => ''): Promise<void> {
  let seen = count();
  let grewAt = Date.now();
  while (seen < target) {
    if (Date.now() - grewAt > stallMs) throw new Error(`${what}: stuck at ${seen} of ${target} for ${stallMs} ms${detail()}`);
    await sleep(50);
    const now = count();
    if (now > seen) [seen, grewAt] = [now, Date.now()];
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
