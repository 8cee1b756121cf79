import type { Clock } from '../domain/clock.js';
import type { Queryable } from '../db/database.js';
import { LONGEST_RETENTION_DAYS, retentionDaysSql } from '../domain/plans/plan-limits.js';
import type { PlanMode } from '../domain/plans/plan-mode.js';
import type { Job } from './schedule.js';

/** Monthly partitions exist this many months ahead, so an append never waits for one. */
const MONTHS_AHEAD = 3;

/** The first instant to keep: whole UTC days, so a click on the oldest retained day survives. */
const dayCutoff = (now: Date, days: number) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * 86_400_000;

/** Drops the monthly partitions that end by `cutoff`, and cuts the default one row by row; answers the names dropped. */
async function dropBefore(tx: Queryable, cutoff: number): Promise<string[]> {
  const parts = await tx.query<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'clicks'::regclass and c.relname ~ '^clicks_p[0-9]{6}$'`,
  );
  const dropped: string[] = [];
  for (const { name } of parts) {
    const year = Number(name.slice(8, 12));
    const month = Number(name.slice(12, 14));
    // A partition ends where the next month begins.
    if (Date.UTC(year, month, 1) <= cutoff) {
      await tx.query(`drop table ${name}`);
      dropped.push(name);
    }
  }
  // The default partition catches clicks outside every month (a far-off clock): cut row by row.
  await tx.query(`delete from clicks_default where clicked_at < $1`, [new Date(cutoff)]);
  return dropped;
}

/**
 * Hourly (and at start): creates the click log's monthly partitions ahead of time, and drops
 * whole partitions whose every click is past the longest retention of any workspace's plan.
 * Clicks of a shorter plan that sit in a kept partition are cut by the queries (analytics ranges
 * stop at the plan's retention), never deleted row by row, which would cost as much as writing them.
 * A plan that keeps clicks for good (self-hosted) keeps every partition.
 */
export function clickPartitionsJob(clock: Clock, plans: PlanMode): Job {
  return {
    name: 'click-partitions',
    lockId: 72_410_105,
    async run(tx) {
      const now = clock.now();
      await tx.query('select hop_ensure_click_partitions($1, $2)', [now, MONTHS_AHEAD]);
      const [{ days, forever }] = await tx.query<{ days: number | null; forever: boolean | null }>(
        `select max(d)::int as days, bool_or(d is null) as forever from (select ${retentionDaysSql(plans.planSql('plan'))} as d from workspaces) w`,
      );
      const dropped = forever ? [] : await dropBefore(tx, dayCutoff(now, days ?? LONGEST_RETENTION_DAYS));
      // Statistics for the planner, which PostgreSQL's autovacuum keeps but the embedded database
      // never gathers: without them, analytics' read of the clicks after the aggregation watermark
      // (a BRIN range) is planned as a scan of the whole log, and a link's read of its rollups goes
      // through the workspace's (workspace, day) index, every link's rows of the range, instead of
      // the link's own key, reading every link's rows to return one link's.
      await tx.query('analyze clicks, click_rollups');
      return { dropped };
    },
  };
}
