/**
 * The statements behind analytics: the daily rollups the aggregation job keeps, plus the clicks it
 * has not rolled up yet ("pending", after its watermark), counted as the job will count them.
 */

import { AGENT_DIMENSIONS, TOTAL_DIMENSIONS, agentPartSql } from '../clicks/rollup-shape.js';

const DIMENSIONS = ['country', 'device', 'browser', 'os', 'referrer', 'target'] as const;

export interface AnalyticsSqlParams {
  /** The filter on `r` (a click or a rollup row): workspace, link, domain, tags. */
  where: string;
  /** Whether `where` names one link: the visitor key then leaves the link out. */
  oneLink: boolean;
  /** Parameter references: the UTC days (date), their bounds (timestamptz), the watermark read before. */
  startDay: string;
  endDay: string;
  from: string;
  to: string;
  floor: string;
}

/**
 * The pending clicks (human, of live links, in the range), each flagged `is_unique` as the job
 * will decide it: a visitor's first click on a link in a UTC day (by time, then id, as the job
 * orders them), unless the rolled-up part already holds that visitor (daily_visitors).
 *
 * Why this shape: the watermark is read inside the statement, so it cannot move between the
 * rollups and the raw clicks; the one read a moment before (`floor`, never ahead of it) is a bound
 * the planner can see, so it reads the few BRIN ranges at the log's end. Sort and group keys are
 * compared bytewise (collate "C"): under the database's collation each comparison is a strcoll.
 * The scan of the log tests only its leading columns (id, link, workspace, time), and the rest is
 * filtered above it (the OFFSET keeps the two apart): a scan's test reads each row up to the last
 * column it names, and with `is_bot`, the 14th, every click of every other link waiting would be
 * read through all its text columns.
 * Only a visitor's first click is looked up in daily_visitors, by its primary key: the OFFSET
 * keeps the lookup a lookup, where the planner would otherwise hash every visitor the link had in
 * the last days to match a few seconds of clicks.
 */
export function pendingCtes(p: AnalyticsSqlParams): string {
  const visitor = p.oneLink ? 'day, visitor_hash collate "C"' : 'link_id collate "C", day, visitor_hash collate "C"';
  const bytewise = DIMENSIONS.map((d) => `r.${d} collate "C" as ${d}`).join(', ');
  return `pending as (
    select r.id, r.link_id, r.clicked_at, (r.clicked_at at time zone 'UTC')::date as day, r.visitor_hash, ${bytewise}
    from (
      select * from clicks r
      where r.id > ${p.floor}::bigint and r.id > (select last_id from click_watermark) and ${p.where}
        and r.clicked_at >= ${p.from}::timestamptz and r.clicked_at < ${p.to}::timestamptz
      offset 0
    ) r
    where not r.is_bot and exists (select 1 from links live where live.id = r.link_id)
  ),
  pending_flagged as (
    select p.*, row_number() over (partition by ${visitor} order by p.clicked_at, p.id) = 1
        and not exists (
          select 1 from daily_visitors dv where dv.link_id = p.link_id collate "C" and dv.day = p.day and dv.visitor_hash = p.visitor_hash collate "C" offset 0
        ) as is_unique
    from pending p
  )`;
}

/**
 * Rows (day, dimension, key, clicks, uniques) to add up. From the rollups over the range, in one
 * pass (grouping sets): the total per day (the sum of the agent rows, rollup-shape.ts) and the sum
 * per stored key across days (per day for `password_failures`, which the lockout count needs),
 * each agent key then split into its device, browser and OS, so a split is paid once per
 * combination and not per day. Rows written before agent rows existed (`total`, `device`,
 * `browser`, `os`) are read as they are and add up with them. Then the pending clicks per day and
 * key of each dimension, also in one pass. `total` has key ''. Keys are grouped bytewise.
 */
export function breakdownSql(p: AnalyticsSqlParams): string {
  const when = (f: (d: string) => string) => DIMENSIONS.map((d) => `when grouping(h.${d}) = 0 then ${f(d)}`).join(' ');
  const parts = AGENT_DIMENSIONS.map((d, i) => `('${d}', ${i + 1})`).join(', ');
  return `with ${pendingCtes(p)},
  rolled as (
    select grouping(r.dimension) = 1 as daily, r.day, r.failures_day, r.dimension, r.key,
      sum(r.clicks)::int as clicks, sum(r.uniques)::int as uniques,
      (sum(r.clicks) filter (where r.dimension in ${TOTAL_DIMENSIONS}))::int as total_clicks,
      (sum(r.uniques) filter (where r.dimension in ${TOTAL_DIMENSIONS}))::int as total_uniques
    from (
      select r.day, case when r.dimension = 'password_failures' then r.day end as failures_day, r.dimension,
        r.key collate "C" as key, r.clicks, r.uniques
      from click_rollups r where ${p.where} and r.day between ${p.startDay}::date and ${p.endDay}::date
    ) r
    group by grouping sets ((r.day), (r.failures_day, r.dimension, r.key))
  )
    select r.day::text as day, 'total' as dimension, '' as key, r.total_clicks as clicks, r.total_uniques as uniques
    from rolled r where r.daily and r.total_clicks > 0
    union all
    select r.failures_day::text, r.dimension, r.key, r.clicks, r.uniques
    from rolled r where not r.daily and r.dimension not in ${TOTAL_DIMENSIONS}
    union all
    select null, k.dimension, ${agentPartSql('r.key', 'k.part')}, sum(r.clicks)::int, sum(r.uniques)::int
    from rolled r cross join (values ${parts}) as k(dimension, part)
    where not r.daily and r.dimension = 'agent'
    group by k.dimension, 3
    union all
    select h.day::text, case ${when((d) => `'${d}'`)} else 'total' end,
      case ${when((d) => `coalesce(h.${d}, '')`)} else '' end,
      count(*)::int, (count(*) filter (where h.is_unique))::int
    from pending_flagged h
    group by grouping sets ((h.day), ${DIMENSIONS.map((d) => `(h.day, h.${d})`).join(', ')})`;
}

/** The ten links with the most clicks in the range, rolled up and pending alike. */
export function topLinksSql(p: AnalyticsSqlParams): string {
  return `with ${pendingCtes(p)}
    select t.link_id, l.slug, l.domain, sum(t.clicks)::int as clicks, sum(t.uniques)::int as uniques
    from (
      -- The rollups' link id compares bytewise (migration 044), the log's under the database's
      -- collation: the join with links needs one of them.
      select r.link_id collate "default", r.clicks, r.uniques from click_rollups r
      where ${p.where} and r.day between ${p.startDay}::date and ${p.endDay}::date and r.dimension in ${TOTAL_DIMENSIONS}
      union all
      select h.link_id, count(*), count(*) filter (where h.is_unique) from pending_flagged h group by h.link_id
    ) t join links l on l.id = t.link_id
    group by t.link_id, l.slug, l.domain order by clicks desc, t.link_id limit 10`;
}
