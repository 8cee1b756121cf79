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

/** Runs `concurrency` workers, each calling `once(worker, i)` again as soon as it settles. */
export function startLoad<T>(concurrency: number, once: (worker: number, i: number) => Promise<T>): Load<T> {
  const outcomes: (T | Error)[] = [];
  let stopped = false;
  let inFlight = 0;
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
  return {
    outcomes,
    get inFlight() {
      return inFlight;
    },
    async stop() {
      stopped = true;
      await Promise.all(workers);
      return outcomes;
    },
  };
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
