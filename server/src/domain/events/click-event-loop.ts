import type { ClickEventProducer } from './click-event-producer.js';

/**
 * While redirects keep the process busy, runs take at most this many clicks a second: the
 * producer's writes, and the deliveries they bring, cost PostgreSQL CPU at the process's own
 * priority (a niced thread only yields its JavaScript), so they wait for the load to ease, but a
 * machine that never eases still delivers this many a second.
 */
export const BUSY_FLOOR_PER_SECOND = 250;
/** How long a failed run waits before the next one (the database is away or restarting). */
const RETRY_MS = 1_000;

/**
 * Runs the click event producer for as long as the process lives: a run as soon as committed
 * clicks wait past the cursor (checked every `pollMs`, a query that waits for nothing), runs back
 * to back, each twice the last, while a backlog remains, and, while `busy()` says the redirects
 * want the cores, one small run a second (BUSY_FLOOR_PER_SECOND).
 */
export function startClickEventLoop(deps: {
  producer: ClickEventProducer;
  pollMs: number;
  /** Whether the redirects want the cores now (none: never). */
  busy?: () => boolean;
  log?: { error(obj: object, msg: string): void };
}): { stop(): Promise<void> } {
  const { producer, pollMs } = deps;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    wake = resolve;
    timer = setTimeout(resolve, ms);
  });

  // Runs start small and double while a backlog remains: a burst of redirects shows in `busy()`
  // only after a moment, and a run of full size begun in that moment would take the cores from
  // them with its writes and the deliveries it queues. Once caught up (or busy), small again.
  let size = BUSY_FLOOR_PER_SECOND;
  async function turn(): Promise<number> {
    if ((await producer.pending()) === 0) return pollMs;
    if (deps.busy?.()) {
      size = BUSY_FLOOR_PER_SECOND;
      await producer.run(BUSY_FLOOR_PER_SECOND);
      return 1_000;
    }
    const r = await producer.run(size);
    size = r.more ? Math.min(size * 2, 1 << 20) : BUSY_FLOOR_PER_SECOND;
    return r.more ? 0 : pollMs;
  }

  const running = (async () => {
    while (!stopped) {
      let wait: number;
      try {
        wait = await turn();
      } catch (err) {
        if (stopped) break;
        deps.log?.error({ err }, 'producing click events failed; the next run reads the same clicks again');
        wait = RETRY_MS;
      }
      if (stopped) break;
      if (wait > 0) await sleep(wait);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  })();

  return {
    /** Lets the run in progress commit (or fail), then stops. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await running;
    },
  };
}
