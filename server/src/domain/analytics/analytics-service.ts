import type { Analytics, AnalyticsGroup, BreakdownEntry, Plan } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { PLAN_LIMITS } from '../plans/plan-limits.js';
import { bucketOf, resolveRange } from './analytics-range.js';

interface RollupRow {
  day: string;
  dimension: string;
  key: string;
  clicks: number;
  uniques: number;
}

export interface AnalyticsFilter {
  workspaceId: string;
  plan: Plan;
  linkId?: string;
  domain?: string;
  tags?: string;
}

export interface AnalyticsRequest {
  days?: number;
  start?: string;
  end?: string;
  groupBy?: AnalyticsGroup;
}

const BREAKDOWNS = { country: 'countries', device: 'devices', browser: 'browsers', os: 'os', referrer: 'referrers', target: 'targets' } as const;

/**
 * The clicks not yet rolled up (after the aggregation job's watermark), human and of live links,
 * in the range, with their uniques decided as the job will decide them: a visitor's first click
 * on a link in a UTC day, unless the rolled-up part already holds that visitor (daily_visitors).
 * Read in the same statement as the rollups, so the watermark cannot move in between. Each pending
 * visitor is looked up on its own (a semi-join): joined as a set, the planner read every visitor
 * the link ever had to match a few seconds of clicks.
 */
const PENDING_SQL = (where: string, startParam: string, endParam: string, floorParam: string) => `pending as (
    select r.id, r.link_id, r.clicked_at, (r.clicked_at at time zone 'UTC')::date as day, r.visitor_hash, r.country,
      r.device, r.browser, r.os, r.referrer, r.target
    from clicks r
    where r.id > ${floorParam}::bigint and r.id > (select last_id from click_watermark) and not r.is_bot and ${where}
      and r.clicked_at >= ${startParam}::timestamptz and r.clicked_at < ${endParam}::timestamptz
      and exists (select 1 from links live where live.id = r.link_id)
  ),
  pending_ranked as (
    select p.*, not exists (select 1 from daily_visitors dv where dv.link_id = p.link_id and dv.day = p.day and dv.visitor_hash = p.visitor_hash)
        and row_number() over (partition by p.link_id, p.day, p.visitor_hash order by p.clicked_at, p.id) = 1 as is_unique
    from pending p
  )`;

/**
 * The pending clicks per day and per key of each dimension, as the rollups hold them (`total` has
 * key ''), counted in one pass over them (grouping sets) rather than expanded into a row per
 * click and dimension first, which cost twice as much.
 */
const PENDING_BREAKDOWN_SQL = (() => {
  const dims = ['country', 'device', 'browser', 'os', 'referrer', 'target'];
  const when = (f: (d: string) => string) => dims.map((d) => `when grouping(h.${d}) = 0 then ${f(d)}`).join(' ');
  return `select h.day, case ${when((d) => `'${d}'`)} else 'total' end,
      case ${when((d) => `coalesce(h.${d}, '')`)} else '' end,
      count(*), count(*) filter (where h.is_unique)
    from pending_ranked h
    group by grouping sets ((h.day), ${dims.map((d) => `(h.day, h.${d})`).join(', ')})`;
})();

function sortedEntries(map: Map<string, { clicks: number; uniques: number }>): BreakdownEntry[] {
  return [...map.entries()]
    .map(([key, v]) => ({ key: key === '' ? null : key, clicks: v.clicks, uniqueClicks: v.uniques }))
    .sort((a, b) => b.clicks - a.clicks || (a.key ?? '').localeCompare(b.key ?? ''));
}

/**
 * Analytics read the daily rollups the aggregation job keeps, plus the few seconds of raw clicks
 * it has not rolled up yet, so a link with a million clicks costs about what one with ten does and
 * a click shows here as soon as it is written.
 */
export function createAnalyticsService(deps: { db: Queryable; clock: Clock; shortUrl: (domain: string, slug: string) => string }) {
  const { db, clock } = deps;

  async function linkFilterSql(f: AnalyticsFilter, params: unknown[]) {
    const where = ['r.workspace_id = $1'];
    if (f.linkId) {
      params.push(f.linkId);
      where.push(`r.link_id = $${params.length}`);
    }
    if (f.domain || f.tags) {
      const sub = ['l.id = r.link_id'];
      if (f.domain) {
        params.push(f.domain.toLowerCase());
        sub.push(`l.domain = $${params.length}`);
      }
      const tags = f.tags?.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
      if (tags?.length) {
        params.push(tags);
        sub.push(`l.tags @> $${params.length}::text[]`);
      }
      where.push(`exists (select 1 from links l where ${sub.join(' and ')})`);
    }
    return where.join(' and ');
  }

  async function analytics(f: AnalyticsFilter, q: AnalyticsRequest, withTopLinks: boolean): Promise<Analytics> {
    const range = resolveRange(q, clock.now(), PLAN_LIMITS[f.plan].clickRetentionDays);
    const params: unknown[] = [f.workspaceId];
    const where = await linkFilterSql(f, params);
    params.push(range.start, range.end);
    const between = `r.day between $${params.length - 1}::date and $${params.length}::date`;
    params.push(`${range.start}T00:00:00.000Z`, new Date(Date.parse(`${range.end}T00:00:00.000Z`) + 86_400_000).toISOString());
    // The watermark as read a moment ago, a bound the planner can see (the one read in the statement
    // is not known when it is planned): it only moves forward, so the statement's own is at least
    // this. Without it the planner expects a third of the log after the watermark, and scans the
    // log in parallel workers instead of the few BRIN ranges at its end.
    const [{ last_id: floor }] = await db.query<{ last_id: number }>('select last_id from click_watermark');
    params.push(floor);
    const pending = PENDING_SQL(where, `$${params.length - 2}`, `$${params.length - 1}`, `$${params.length}`);
    const rows = await db.query<RollupRow>(
      `with ${pending}
       select day::text as day, dimension, key, sum(clicks)::int as clicks, sum(uniques)::int as uniques from (
         select r.day, r.dimension, r.key, r.clicks, r.uniques from click_rollups r where ${where} and ${between}
         union all
         ${PENDING_BREAKDOWN_SQL}
       ) x
       group by day, dimension, key`,
      params,
    );

    let totalClicks = 0;
    let uniqueClicks = 0;
    let failedPasswordAttempts = 0;
    const perDay = new Map(range.days.map((d) => [d, { clicks: 0, uniques: 0 }]));
    const byDimension = new Map<string, Map<string, { clicks: number; uniques: number }>>();
    for (const r of rows) {
      if (r.dimension === 'password_failures') {
        failedPasswordAttempts += r.clicks;
      } else if (r.dimension === 'total') {
        totalClicks += r.clicks;
        uniqueClicks += r.uniques;
        const d = perDay.get(r.day);
        if (d) {
          d.clicks += r.clicks;
          d.uniques += r.uniques;
        }
      } else {
        const m = byDimension.get(r.dimension) ?? new Map();
        const e = m.get(r.key) ?? { clicks: 0, uniques: 0 };
        e.clicks += r.clicks;
        e.uniques += r.uniques;
        m.set(r.key, e);
        byDimension.set(r.dimension, m);
      }
    }

    const result: Analytics = { start: range.start, end: range.end, totalClicks, uniqueClicks, failedPasswordAttempts };
    const group = q.groupBy;
    if (!group) {
      result.timeseries = [...perDay.entries()].map(([date, v]) => ({ date, clicks: v.clicks, uniqueClicks: v.uniques }));
      for (const [dim, field] of Object.entries(BREAKDOWNS)) result[field] = sortedEntries(byDimension.get(dim) ?? new Map());
    } else if (group === 'day' || group === 'week' || group === 'month') {
      const buckets = new Map<string, { clicks: number; uniques: number }>();
      for (const [day, v] of perDay) {
        const key = group === 'day' ? day : bucketOf(day, group);
        const b = buckets.get(key) ?? { clicks: 0, uniques: 0 };
        b.clicks += v.clicks;
        b.uniques += v.uniques;
        buckets.set(key, b);
      }
      // Time groups stay in time order.
      result.groups = [...buckets.entries()].map(([key, v]) => ({ key, clicks: v.clicks, uniqueClicks: v.uniques }));
    } else {
      result.groups = sortedEntries(byDimension.get(group) ?? new Map());
    }

    if (withTopLinks) {
      const top = await db.query<{ link_id: string; slug: string; domain: string; clicks: number; uniques: number }>(
        `with ${pending}
         select t.link_id, l.slug, l.domain, sum(t.clicks)::int as clicks, sum(t.uniques)::int as uniques
         from (
           select r.link_id, r.clicks, r.uniques from click_rollups r where ${where} and ${between} and r.dimension = 'total'
           union all
           select h.link_id, 1, case when h.is_unique then 1 else 0 end from pending_ranked h
         ) t join links l on l.id = t.link_id
         group by t.link_id, l.slug, l.domain order by clicks desc, t.link_id limit 10`,
        params,
      );
      result.topLinks = top.map((t) => ({
        linkId: t.link_id, slug: t.slug, domain: t.domain, shortUrl: deps.shortUrl(t.domain, t.slug),
        clicks: t.clicks, uniqueClicks: t.uniques,
      }));
    }
    return result;
  }

  return {
    async forLink(f: AnalyticsFilter & { linkId: string }, q: AnalyticsRequest): Promise<Analytics> {
      const [link] = await db.query('select 1 from links where id = $1 and workspace_id = $2', [f.linkId, f.workspaceId]);
      if (!link) throw notFound('link');
      return analytics(f, q, false);
    },
    forWorkspace: (f: AnalyticsFilter, q: AnalyticsRequest) => analytics(f, q, true),
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
