import type { Analytics, AnalyticsGroup, BreakdownEntry, Plan } from '@hop/shared';
import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { PLAN_LIMITS } from '../plans/plan-limits.js';
import { bucketOf, resolveRange } from './analytics-range.js';
import { createSharedReads } from './shared-reads.js';
import { breakdownSql, topLinksSql, type AnalyticsSqlParams } from './analytics-sql.js';
import { DERIVED_KEYS } from '../clicks/rollup-shape.js';

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

type Counts = { clicks: number; uniques: number };

function sortedEntries(map: Map<string, Counts>): BreakdownEntry[] {
  return [...map.entries()]
    .map(([key, v]) => ({ key: key === '' ? null : key, clicks: v.clicks, uniqueClicks: v.uniques }))
    .sort((a, b) => b.clicks - a.clicks || (a.key ?? '').localeCompare(b.key ?? ''));
}

/**
 * Each dimension's key that has no rollup row of its own (DERIVED_KEYS: its fallback, such as no
 * country or the default target) is the total less the dimension's other keys; such a key read
 * anyway (the pending clicks, a part of an agent row such as `desktop`, or rollups written before
 * the rule) is skipped when summing, not to count it twice.
 * Uniques subtract the same way: a unique click is unique under exactly one key of each dimension.
 */
function addDerivedKeys(byDimension: Map<string, Map<string, Counts>>, totalClicks: number, totalUniques: number) {
  for (const [dimension, key] of Object.entries(DERIVED_KEYS)) {
    const keys = byDimension.get(dimension) ?? new Map<string, Counts>();
    let clicks = totalClicks;
    let uniques = totalUniques;
    for (const other of keys.values()) {
      clicks -= other.clicks;
      uniques -= other.uniques;
    }
    if (clicks > 0) keys.set(key, { clicks, uniques });
    byDimension.set(dimension, keys);
  }
}

const isDerived = (dimension: string, key: string) => DERIVED_KEYS[dimension as keyof typeof DERIVED_KEYS] === key;

/**
 * Analytics read the daily rollups the aggregation job keeps, plus the few seconds of raw clicks
 * it has not rolled up yet, so a link with a million clicks costs about what one with ten does and
 * a click shows here as soon as it is written.
 */
export function createAnalyticsService(deps: {
  /** Its reads go through `report` (no JIT); the rest through `query`. */
  db: Pick<Database, 'query' | 'report'>;
  clock: Clock;
  shortUrl: (domain: string, slug: string) => string;
  /** Identical requests share a statement begun at most this long before they arrived (shared-reads.ts). */
  shareWithinMs?: number;
}) {
  const { db, clock } = deps;

  async function linkFilterSql(f: AnalyticsFilter, params: unknown[]) {
    const where = ['r.workspace_id = $1'];
    if (f.linkId) {
      params.push(f.linkId);
      where.push(`r.link_id = $${params.length}`);
    }
    if (f.domain || f.tags) {
      // `r` is a rollup row (its link id compares bytewise, migration 044) or a click: the
      // comparison takes the links' collation, so it probes their primary key.
      const sub = ['l.id = r.link_id collate "default"'];
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

  /** Lifetime clicks imported from another shortener by the links in the filter: they have no date, so every range counts them. */
  async function importedClicks(f: AnalyticsFilter): Promise<number> {
    const params: unknown[] = [f.workspaceId];
    const where = ['workspace_id = $1', 'imported_clicks is not null'];
    if (f.linkId) where.push(`id = $${params.push(f.linkId)}`);
    if (f.domain) where.push(`domain = $${params.push(f.domain.toLowerCase())}`);
    const tags = f.tags?.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
    if (tags?.length) where.push(`tags @> $${params.push(tags)}::text[]`);
    const [row] = await db.query<{ n: string | number | null }>(`select sum(imported_clicks) as n from links where ${where.join(' and ')}`, params);
    return Number(row?.n ?? 0);
  }

  /**
   * `requireLink`: the link must exist in the workspace (checked in the same round trip as the
   * watermark is read).
   */
  async function analytics(f: AnalyticsFilter, q: AnalyticsRequest, withTopLinks: boolean, requireLink = false): Promise<Analytics> {
    const range = resolveRange(q, clock.now(), PLAN_LIMITS[f.plan].clickRetentionDays);
    // The watermark as read a moment ago, a bound the planner can see (the one read in the statement
    // is not known when it is planned): it only moves forward, so the statement's own is at least
    // this. Without it the planner expects a third of the log after the watermark, and scans the
    // log in parallel workers instead of the few BRIN ranges at its end.
    const [{ floor, found }] = await db.query<{ floor: number; found: boolean }>(
      `select (select last_id from click_watermark) as floor,
         ${requireLink ? 'exists (select 1 from links where id = $1 and workspace_id = $2)' : 'true'} as found`,
      requireLink ? [f.linkId, f.workspaceId] : [],
    );
    if (!found) throw notFound('link');
    const params: unknown[] = [f.workspaceId];
    const where = await linkFilterSql(f, params);
    params.push(range.start, range.end, `${range.start}T00:00:00.000Z`);
    params.push(new Date(Date.parse(`${range.end}T00:00:00.000Z`) + 86_400_000).toISOString(), floor);
    const n = params.length;
    const sqlParams: AnalyticsSqlParams = {
      where, oneLink: Boolean(f.linkId), startDay: `$${n - 4}`, endDay: `$${n - 3}`, from: `$${n - 2}`, to: `$${n - 1}`, floor: `$${n}`,
    };
    const [rows, imported] = await Promise.all([db.report<RollupRow>(breakdownSql(sqlParams), params), importedClicks(f)]);

    let totalClicks = 0;
    let uniqueClicks = 0;
    let failedPasswordAttempts = 0;
    const perDay = new Map(range.days.map((d) => [d, { clicks: 0, uniques: 0 }]));
    const byDimension = new Map<string, Map<string, Counts>>();
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
      } else if (!isDerived(r.dimension, r.key)) {
        const m = byDimension.get(r.dimension) ?? new Map();
        const e = m.get(r.key) ?? { clicks: 0, uniques: 0 };
        e.clicks += r.clicks;
        e.uniques += r.uniques;
        m.set(r.key, e);
        byDimension.set(r.dimension, m);
      }
    }

    addDerivedKeys(byDimension, totalClicks, uniqueClicks);

    const result: Analytics = {
      start: range.start, end: range.end, totalClicks: totalClicks + imported, uniqueClicks, importedClicks: imported, failedPasswordAttempts,
    };
    const group = q.groupBy;
    if (!group) {
      result.timeseries = [...perDay.entries()].map(([date, v]) => ({ date, clicks: v.clicks, uniqueClicks: v.uniques }));
      for (const [dim, field] of Object.entries(BREAKDOWNS)) result[field] = sortedEntries(byDimension.get(dim) ?? new Map());
    } else if (group === 'day' || group === 'week' || group === 'month') {
      const buckets = new Map<string, Counts>();
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
      const top = await db.report<{ link_id: string; slug: string; domain: string; clicks: number; uniques: number }>(topLinksSql(sqlParams), params);
      result.topLinks = top.map((t) => ({
        linkId: t.link_id, slug: t.slug, domain: t.domain, shortUrl: deps.shortUrl(t.domain, t.slug),
        clicks: t.clicks, uniqueClicks: t.uniques,
      }));
    }
    return result;
  }

  // A dashboard many people watch, or one polled by several tabs, asks the same question many
  // times at once: those reads share a statement, begun at most one click flush interval before
  // each of them asked. The key holds everything the answer depends on, the workspace and plan included.
  const shared = createSharedReads<Analytics>({ joinWithinMs: deps.shareWithinMs ?? 0 });
  const key = (kind: string, f: AnalyticsFilter, q: AnalyticsRequest) =>
    JSON.stringify([kind, f.workspaceId, f.plan, f.linkId, f.domain, f.tags, q.days, q.start, q.end, q.groupBy]);

  return {
    forLink: (f: AnalyticsFilter & { linkId: string }, q: AnalyticsRequest) =>
      shared(key('link', f, q), () => analytics(f, q, false, true)),
    forWorkspace: (f: AnalyticsFilter, q: AnalyticsRequest) => shared(key('workspace', f, q), () => analytics(f, q, true)),
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
