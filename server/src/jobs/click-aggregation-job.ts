import { aggregateClicks, pendingClicks } from '../domain/clicks/click-aggregation.js';
import type { Job } from './schedule.js';

/**
 * On PostgreSQL a run rolls up once this many clicks wait, or once the last run is MAX_LAG_FLUSHES
 * flush intervals old: the rows a run writes are one per link, day and dimension key it touches, so a
 * run over ten seconds of clicks writes far fewer per click than ten runs of one second each
 * (docs/decisions.md, "The job waits for clicks to merge"): 0.43 rows a click at 10,000 links
 * evenly, against 1.10 for runs of 40,000. Analytics read what waits of their link's sixteenth of
 * the log (migration 045): at most a sixteenth of this many and one flush interval's clicks
 * (bench/analytics.mjs measures that much).
 */
export const MIN_CLICKS = 200_000;
const MAX_LAG_FLUSHES = 10;
/**
 * Under load, the link counters catch up once this many rolled-up clicks wait for them (or the
 * last catch-up is MAX_LAG_FLUSHES flush intervals old): a counter row per link touched, written
 * every few runs rather than every run (docs/decisions.md, "Counters catch up every few runs").
 * Two runs' worth: at a run's size the counters would catch up at every run and never wait.
 */
const COUNT_AFTER_CLICKS = 2 * MIN_CLICKS;

/**
 * Every flush interval (1 s by default): rolls up the clicks appended since the last run, on
 * PostgreSQL only once they are due (enough of them, or the last run long enough ago). One process
 * of the fleet runs it at a time (the job's advisory lock); analytics add the clicks not yet
 * rolled up, so only `clicks` on links lags: by at most ten flush intervals and a run, and under
 * full load (runs for MIN_CLICKS, the counters deferred) by a run's interval and ten flush intervals.
 *
 * The embedded database rolls up at every interval: there analytics read the clicks not yet
 * rolled up on the server's own process, so they must stay few, and one process on one core is
 * not where rows per click matter.
 */
export function clickAggregationJob(opts: { flushMs: number; waitForClicks: boolean } = { flushMs: 1000, waitForClicks: true }): Job {
  return {
    name: 'click-aggregation',
    lockId: 72_410_104,
    frequent: true,
    async run(tx) {
      if (!opts.waitForClicks) {
        const { from, to } = await aggregateClicks(tx);
        return { clicks: to - from };
      }
      const maxLagMs = MAX_LAG_FLUSHES * opts.flushMs;
      const pending = await pendingClicks(tx);
      const rollUpDue = pending.clicks >= MIN_CLICKS || (pending.clicks > 0 && pending.sinceRunMs >= maxLagMs);
      const countDue = pending.uncounted > 0 && pending.sinceCountMs >= maxLagMs;
      if (!rollUpDue && !countDue) return { clicks: 0 };
      // Under load (a run for MIN_CLICKS waiting clicks) the counters wait for several runs' clicks,
      // never longer than the rollups may; a run for the time passed counts all it rolled up.
      const defer = pending.clicks >= MIN_CLICKS ? { minClicks: COUNT_AFTER_CLICKS, maxAgeMs: maxLagMs } : undefined;
      const { from, to } = await aggregateClicks(tx, defer);
      return { clicks: to - from };
    },
  };
}
