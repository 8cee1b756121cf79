import { z } from 'zod';
import { idSchema } from './ids.js';

export const ANALYTICS_GROUPS = ['day', 'week', 'month', 'country', 'device', 'browser', 'os', 'referrer', 'target'] as const;
export const AnalyticsGroupSchema = z.enum(ANALYTICS_GROUPS);
export type AnalyticsGroup = z.infer<typeof AnalyticsGroupSchema>;

/** A calendar day (UTC) or a timestamp, of which the UTC day is taken. */
const DayInputSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** `days` (1-730, default 30) or `start`/`end` (inclusive UTC days), and an optional grouping. */
export const AnalyticsQuerySchema = z
  .strictObject({
    days: z.coerce.number().int().min(1).max(730).optional(),
    start: DayInputSchema.optional(),
    end: DayInputSchema.optional(),
    groupBy: AnalyticsGroupSchema.optional(),
  })
  .refine((q) => !(q.days !== undefined && (q.start || q.end)), 'give either days or start/end, not both');
export type AnalyticsQuery = z.input<typeof AnalyticsQuerySchema>;

export const WorkspaceAnalyticsQuerySchema = z
  .strictObject({
    days: z.coerce.number().int().min(1).max(730).optional(),
    start: DayInputSchema.optional(),
    end: DayInputSchema.optional(),
    groupBy: AnalyticsGroupSchema.optional(),
    linkId: idSchema('lnk').optional(),
    domain: z.string().max(253).optional(),
    /** Comma-separated; a link must carry all of them. */
    tags: z.string().max(1100).optional(),
  })
  .refine((q) => !(q.days !== undefined && (q.start || q.end)), 'give either days or start/end, not both');
export type WorkspaceAnalyticsQuery = z.input<typeof WorkspaceAnalyticsQuerySchema>;

export const BreakdownEntrySchema = z.object({
  /** null where unknown (no referrer, country not found). */
  key: z.string().nullable(),
  clicks: z.number().int(),
  uniqueClicks: z.number().int(),
});
export type BreakdownEntry = z.infer<typeof BreakdownEntrySchema>;

export const TimeseriesPointSchema = z.object({ date: z.iso.date(), clicks: z.number().int(), uniqueClicks: z.number().int() });

export const TopLinkSchema = z.object({
  linkId: idSchema('lnk'),
  slug: z.string(),
  domain: z.string(),
  shortUrl: z.string(),
  clicks: z.number().int(),
  uniqueClicks: z.number().int(),
});

/** The breakdowns are present without `groupBy`; `groups` with it (docs/api.md, Analytics). */
export const AnalyticsSchema = z
  .object({
    start: z.iso.date(),
    end: z.iso.date(),
    totalClicks: z.number().int(),
    uniqueClicks: z.number().int(),
    importedClicks: z.number().int().describe(
      'Lifetime clicks of imported links at the service they came from; undated, so part of totalClicks in every range.',
    ),
    failedPasswordAttempts: z.number().int(),
    timeseries: z.array(TimeseriesPointSchema).optional(),
    countries: z.array(BreakdownEntrySchema).optional(),
    devices: z.array(BreakdownEntrySchema).optional(),
    browsers: z.array(BreakdownEntrySchema).optional(),
    os: z.array(BreakdownEntrySchema).optional(),
    referrers: z.array(BreakdownEntrySchema).optional(),
    /** Which destination served the clicks: `default`, `ios`, `android`, `rule:N`, `variant:N`. */
    targets: z.array(BreakdownEntrySchema).optional(),
    groups: z.array(BreakdownEntrySchema).optional(),
    topLinks: z.array(TopLinkSchema).optional(),
  })
  .meta({
    id: 'Analytics',
    description: 'Counted from the click log: a visit shows here once its batch is written (within ~1 s of the ' +
      'redirect), including clicks not yet rolled up. Uniques are exact: one visitor hash per link per UTC day.',
  });
export type Analytics = z.infer<typeof AnalyticsSchema>;

