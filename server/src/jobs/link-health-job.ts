import type { Database } from '../db/database.js';
import type { LinkHealthService } from '../domain/links/link-health.js';

/** Session advisory lock (class, id): one process of the fleet sweeps at a time. */
const LOCK = [72_410_016, 1] as const;

/**
 * The destination health sweep, every `intervalMs` (a day by default). Its first run is one whole
 * interval after start, never at start: a server that has just started (a test server, a new
 * node of the fleet) sends no request to anybody's destination. The sweep makes requests for
 * minutes, so it holds a session lock instead of a transaction (which on the embedded database
 * would hold up every other query); links checked within the interval by any process are
 * skipped, so a fleet checks each link about once per interval.
 */
export function startLinkHealthJob(deps: {
  db: Database;
  health: LinkHealthService;
  intervalMs: number;
  log: { info(o: object, m: string): void; error(o: object, m: string): void };
  onRun?: (job: string, outcome: 'ran' | 'skipped' | 'failed', seconds: number) => void;
}): { stop(): void } {
  const { db, health, intervalMs, log } = deps;
  let running = false;
  async function sweep() {
    if (running) return;
    running = true;
    const started = performance.now();
    const took = () => (performance.now() - started) / 1000;
    const lock = await db.holdLock(LOCK[0], LOCK[1]).catch(() => null);
    try {
      if (!lock) return deps.onRun?.('link-health', 'skipped', took());
      const result = await health.checkStale(intervalMs);
      deps.onRun?.('link-health', 'ran', took());
      log.info({ job: 'link-health', result }, 'job ran');
    } catch (err) {
      deps.onRun?.('link-health', 'failed', took());
      log.error({ err, job: 'link-health' }, 'job failed');
    } finally {
      await lock?.release().catch(() => {});
      running = false;
    }
  }
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
