import { Args, Flags } from '@oclif/core';
import { ANALYTICS_GROUPS, type Analytics, type AnalyticsGroup, type BreakdownEntry } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { linkIdFor } from '../../link-ref.js';
import { UsageError } from '../../errors.js';
import { parseTime, workspaceFlag } from '../../flags.js';
import type { IO } from '../../io.js';
import { printBarChart, printRecord, printRows, type Bar } from '../../render.js';

const DAY_MS = 86_400_000;

/** A UTC day as given (`2026-04-01`), or a duration back from now (`7d`, `2w`) or an ISO time. */
const dayFlag = Flags.custom<string>({
  helpValue: '<date|duration>',
  parse: async (input) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(input)) return parseTime(input, -1);
    if (new Date(`${input}T00:00:00Z`).toISOString().slice(0, 10) !== input) throw new Error(`"${input}" is not a calendar day`);
    return input;
  },
});

export default class AnalyticsShow extends BaseCommand<typeof AnalyticsShow> {
  static summary = 'Clicks of a link, or of the whole workspace with --workspace-wide';
  static description =
    'On a terminal: totals, a bar chart of clicks over time (or of the groups with --group-by) and the top 5 of each ' +
    'breakdown. Piped: tab-separated lines whose first field names the row (start, end, clicks, uniqueClicks, ' +
    'failedPasswordAttempts, importedClicks, day, country, device, browser, os, referrer, link, or the --group-by dimension). ' +
    "--json prints the API's data.";
  static examples = [
    '<%= config.bin %> analytics launch --days 7',
    '<%= config.bin %> analytics launch --group-by country',
    '<%= config.bin %> analytics launch --start 2026-04-01 --end 2026-04-30 --json',
    '<%= config.bin %> analytics --workspace-wide --tag promo',
  ];
  static args = { link: Args.string({ description: 'link id (lnk_...) or slug; omit with --workspace-wide' }) };
  static flags = {
    workspace: workspaceFlag(),
    days: Flags.integer({ min: 1, max: 730, exclusive: ['start', 'end'], description: 'the last N days, today included (1-730, default 30)' }),
    start: dayFlag({ description: 'first day (UTC): 2026-04-01, or a duration back from now (7d, 2w)' }),
    end: dayFlag({ description: 'last day (UTC), default today' }),
    'group-by': Flags.string({ aliases: ['by'], options: [...ANALYTICS_GROUPS], description: 'totals per day, week, month or per value of a dimension (--by target: which destination of a smart link served)' }),
    'workspace-wide': Flags.boolean({ description: 'every link of the workspace, with the top links' }),
    domain: Flags.string({ dependsOn: ['workspace-wide'], description: 'with --workspace-wide: only links on this domain' }),
    tag: Flags.string({ char: 't', multiple: true, multipleNonGreedy: true, dependsOn: ['workspace-wide'], description: 'with --workspace-wide: only links carrying this tag; repeat: all of them' }),
  };

  async run(): Promise<Analytics> {
    const { link } = this.args;
    const f = this.flags;
    if (!link && !f['workspace-wide']) throw new UsageError('name a link (id or slug), or pass --workspace-wide');
    if (link && f['workspace-wide']) throw new UsageError('name a link or pass --workspace-wide, not both');
    if (f.start && f.end && f.start.slice(0, 10) > f.end.slice(0, 10)) throw new UsageError('--start is after --end');
    const workspaceId = await this.workspaceId(f.workspace);
    const query = { days: f.days, start: f.start, end: f.end, groupBy: f['group-by'] as AnalyticsGroup | undefined };
    const { data } = link
      ? await this.api.call('getLinkAnalytics', { params: { workspaceId, linkId: await linkIdFor(this.api, workspaceId, link) }, query })
      : await this.api.call('getWorkspaceAnalytics', { params: { workspaceId }, query: { ...query, domain: f.domain, tags: f.tag?.join(',') } });
    if (!this.jsonEnabled()) {
      if (this.io.stdoutIsTTY) printChart(this.io, data, f['group-by']);
      else printRows(this.io, plainRows(data, f['group-by']));
    }
    return data;
  }
}

const BREAKDOWNS = [
  ['countries', 'country', 'Countries'],
  ['devices', 'device', 'Devices'],
  ['browsers', 'browser', 'Browsers'],
  ['os', 'os', 'Operating systems'],
  ['referrers', 'referrer', 'Referrers'],
] as const;

/** Piped: `name<TAB>value` totals, then `dimension<TAB>key<TAB>clicks<TAB>uniqueClicks` rows. */
function plainRows(a: Analytics, groupBy: string | undefined): unknown[][] {
  const rows: unknown[][] = [
    ['start', a.start], ['end', a.end], ['clicks', a.totalClicks], ['uniqueClicks', a.uniqueClicks],
    ['failedPasswordAttempts', a.failedPasswordAttempts], ['importedClicks', a.importedClicks],
  ];
  for (const p of a.timeseries ?? []) rows.push(['day', p.date, p.clicks, p.uniqueClicks]);
  for (const g of a.groups ?? []) rows.push([groupBy, g.key, g.clicks, g.uniqueClicks]);
  for (const [field, name] of BREAKDOWNS) for (const e of a[field] ?? []) rows.push([name, e.key, e.clicks, e.uniqueClicks]);
  for (const l of a.topLinks ?? []) rows.push(['link', l.shortUrl, l.clicks, l.uniqueClicks, l.linkId]);
  return rows;
}

const clicksNote = (clicks: number, unique: number) => `${clicks} (${unique} unique)`;
const entryBar = (dimension: string) => (e: BreakdownEntry): Bar => ({
  label: e.key ?? (dimension === 'referrer' ? '(direct)' : '(unknown)'),
  value: e.clicks,
  note: clicksNote(e.clicks, e.uniqueClicks),
});

/** On a terminal: totals, the series (or groups) as bars, and the top 5 of each breakdown. */
function printChart(io: IO, a: Analytics, groupBy: string | undefined): void {
  const days = Math.round((Date.parse(a.end) - Date.parse(a.start)) / DAY_MS) + 1;
  printRecord(io, {
    clicks: a.totalClicks,
    'unique clicks': a.uniqueClicks,
    'failed password attempts': a.failedPasswordAttempts,
    ...(a.importedClicks ? { 'imported clicks': `${a.importedClicks} (lifetime at the service the links came from; in clicks, in no day)` } : {}),
    'not counted': 'bots (curl, crawlers, link previews) and HEAD requests',
    range: `${a.start} → ${a.end} (${days} day${days === 1 ? '' : 's'})`,
  });
  if (a.groups) printBarChart(io, `Clicks by ${groupBy}`, a.groups.map(entryBar(groupBy ?? '')));
  if (a.timeseries) {
    const { unit, points } = bucketSeries(a.timeseries);
    printBarChart(io, `Clicks per ${unit}`, points.map((p) => ({ label: p.date, value: p.clicks, note: clicksNote(p.clicks, p.uniqueClicks) })));
  }
  for (const [field, name, title] of BREAKDOWNS) {
    const entries = a[field];
    if (entries) printBarChart(io, `${title} (top 5)`, entries.slice(0, 5).map(entryBar(name)));
  }
  if (a.topLinks) {
    printBarChart(io, 'Top links', a.topLinks.slice(0, 5).map((l) => ({
      label: l.shortUrl.replace(/^https?:\/\//, ''), value: l.clicks, note: clicksNote(l.clicks, l.uniqueClicks),
    })));
  }
}

type Point = NonNullable<Analytics['timeseries']>[number];

/** Up to two months a bar per day; up to a year per week (7 days from the start); beyond, per month. */
function bucketSeries(series: readonly Point[]): { unit: string; points: Point[] } {
  if (series.length <= 62) return { unit: 'day', points: [...series] };
  const byMonth = series.length > 366;
  const points: Point[] = [];
  series.forEach((p, i) => {
    const last = points.at(-1);
    const starts = byMonth ? !last || p.date.slice(0, 7) !== last.date.slice(0, 7) : i % 7 === 0;
    if (starts || !last) points.push({ ...p });
    else Object.assign(last, { clicks: last.clicks + p.clicks, uniqueClicks: last.uniqueClicks + p.uniqueClicks });
  });
  return { unit: byMonth ? 'month' : 'week', points };
}
