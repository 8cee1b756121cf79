import { aggregateClicks, pendingClicks } from '../domain/clicks/click-aggregation.js';
import type { Job } from './schedule.js';

/**
 * On PostgreSQL a run rolls up once this many clicks wait, or once clicks have waited
 * MAX_LAG_FLUSHES flush intervals: the rows a run writes are one per link, day and dimension key it
 * touches, so a run over ten seconds of clicks writes far fewer per click than ten runs of one
 * second each (docs/adr/, "The job waits for clicks to merge"): 0.43 rows a click at 10,000 links
 * evenly, against 1.10 for runs of 40,000. Analytics read what waits of their link's sixteenth of
 * the log (migration 045): at most a sixteenth of this many and one flush interval's clicks
 * (bench/analytics.mjs measures that much).
 */
export const MIN_CLICKS = 200_000;
const MAX_LAG_FLUSHES = 10;
/**
 * The embedded database rolls up at most this many clicks a transaction, and runs again at once
 * while more wait (Job.run's `more`): its one session serves nothing else while a run's
 * transaction is open, and a redirect's link lookup waits for at most one slice, not for a
 * catch-up of hundreds of thousands of clicks.
 */
const EMBEDDED_SLICE = 20_000;

/**
 * Every flush interval (1 s by default): rolls up the clicks appended since the last run, on
 * PostgreSQL only once they are due (enough of them, or the first of them waiting long enough).
 * One process of the fleet runs it at a time (the job's advisory lock); analytics add the clicks
 * not yet rolled up, so only `clicks` on links lags: by at most ten flush intervals and a run (a
 * run counts what it rolls up).
 *
 * How long clicks have waited is counted from when this process first saw them past the watermark,
 * not from the last run: after a quiet spell the last run is long past, and the first second of
 * traffic would be rolled up alone, a run that writes a row for nearly every key it touches
 * (docs/adr/, "The job's wait starts with the first waiting click"). Each process counts for
 * itself: a run of another process moves the watermark, and the count starts again at the next
 * tick.
 *
 * The embedded database rolls up at every interval: there analytics read the clicks not yet
 * rolled up on the server's own process, so they must stay few, and one process on one core is
 * not where rows per click matter.
 */
export function clickAggregationJob(
  opts: { flushMs: number; waitForClicks: boolean; now?: () => number } = { flushMs: 1000, waitForClicks: true },
): Job {
  const now = opts.now ?? (() => performance.now());
  /** The watermark behind which clicks were first seen waiting, and when (`now()`). */
  let waiting: { lastId: number; since: number } | undefined;
  return {
    name: 'click-aggregation',
    lockId: 72_410_104,
    frequent: true,
    async run(tx) {
      if (!opts.waitForClicks) {
        const { from, to, more } = await aggregateClicks(tx, EMBEDDED_SLICE);
        return { clicks: to - from, more };
      }
      const maxLagMs = MAX_LAG_FLUSHES * opts.flushMs;
      const pending = await pendingClicks(tx);
      const at = now();
      if (pending.clicks === 0) waiting = undefined;
      else if (waiting?.lastId !== pending.lastId) waiting = { lastId: pending.lastId, since: at };
      const waitedMs = waiting ? at - waiting.since : 0;
      const rollUpDue = pending.clicks >= MIN_CLICKS || (pending.clicks > 0 && waitedMs >= maxLagMs);
      // Counters left behind the rollups (by a server of an earlier version, which let them wait
      // under load) catch up once ten flush intervals old, with or without clicks to roll up.
      const countDue = pending.uncounted > 0 && pending.sinceCountMs >= maxLagMs;
      if (!rollUpDue && !countDue) return { clicks: 0 };
      const { from, to } = await aggregateClicks(tx);
      return { clicks: to - from };
    },
  };
}
