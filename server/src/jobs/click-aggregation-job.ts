import { aggregateClicks } from '../domain/clicks/click-aggregation.js';
import type { Job } from './schedule.js';

/**
 * Every flush interval (1 s by default): rolls up the clicks appended since the last run. One
 * process of the fleet runs it at a time (the job's advisory lock); analytics add the clicks not
 * yet rolled up, so only `clicks` on links lags, by at most a flush and a run.
 */
export function clickAggregationJob(): Job {
  return {
    name: 'click-aggregation',
    lockId: 72_410_104,
    frequent: true,
    async run(tx) {
      const { from, to } = await aggregateClicks(tx);
      return { clicks: to - from };
    },
  };
}
