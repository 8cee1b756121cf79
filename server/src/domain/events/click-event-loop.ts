import type { ClickEventProducer } from './click-event-producer.js';

/**
 * While redirects keep the process busy, runs take at most this many clicks a second
 * (HOP_CLICK_EVENTS_WHILE_BUSY): producing and delivering a click event costs some 0.4 ms of CPU
 * (Hop's and PostgreSQL's, which a niced thread does not lower), so they wait for the load to ease,
 * but a machine that never eases still delivers this many a second (docs/adr/, "While redirects
 * saturate the cores, click events trickle").
 */
export const BUSY_PER_SECOND = 50;
/** A run's size when the loop starts and after it caught up or held back; it doubles while calm. */
export const FIRST_RUN = 250;
/** The redirects want the cores above this share of the main thread's time. */
export const BUSY_UTILIZATION = 0.85;
/**
 * Runs grow only while the latest load is below this: a burst of redirects takes a report or two
 * to cross BUSY_UTILIZATION, and a run that doubled in between took the cores from them.
 */
export const CALM_UTILIZATION = 0.5;
/** How long a failed run waits before the next one (the database is away or restarting). */
const RETRY_MS = 1_000;

/**
 * Runs the click event producer for as long as the process lives: a run as soon as committed
 * clicks wait past the cursor (checked every `pollMs`, a query that waits for nothing), runs back
 * to back while a backlog remains, each twice the last while the load is calm, and, while the
 * redirects want the cores (or before the first load report), one small run a second
 * (`busyPerSecond`, BUSY_PER_SECOND by default).
 */
export function startClickEventLoop(deps: {
  producer: ClickEventProducer;
  pollMs: number;
  /**
   * How busy the redirects keep the process's main thread, 0 to 1, as last reported (undefined:
   * no report yet). None: the process answers no redirects, and runs never hold back.
   */
  load?: () => number | undefined;
  /** Clicks a second produced while the redirects want the cores. */
  busyPerSecond?: number;
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

  // Runs start small and double while a backlog remains and the load is calm: a burst of
  // redirects shows in the load only after a report or two, and a run of full size begun in that
  // moment would take the cores from them with its writes and the deliveries it queues. Before
  // the first report the load is unknown and counts as busy. Once caught up (or busy), small again.
  const { load } = deps;
  const busyPerSecond = deps.busyPerSecond ?? BUSY_PER_SECOND;
  const busy = () => {
    if (!load) return false;
    const u = load();
    return u === undefined || u > BUSY_UTILIZATION;
  };
  const calm = () => {
    if (!load) return true;
    const u = load();
    return u !== undefined && u < CALM_UTILIZATION;
  };
  let size = FIRST_RUN;
  async function turn(): Promise<number> {
    if ((await producer.pending()) === 0) return pollMs;
    if (busy()) {
      size = FIRST_RUN;
      await producer.run(busyPerSecond);
      return 1_000;
    }
    const r = await producer.run(size);
    // The load as it is after the run (a report may have come in while it ran) decides the next.
    if (!r.more) size = FIRST_RUN;
    else if (calm()) size = Math.min(size * 2, 1 << 20);
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
