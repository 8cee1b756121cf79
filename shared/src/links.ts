import { z } from 'zod';
import { LINK_SORTS } from './constants.js';
import { idSchema, TimestampSchema } from './ids.js';
import { PageQuerySchema } from './envelope.js';
import { WorkspaceParamsSchema } from './workspaces.js';
import { appLinkProblem } from './app-links.js';
import { DestinationUrlSchema, HttpsUrlSchema } from './urls.js';
import { BULK_MAX, DEVICES, MAX_RULES, MAX_VARIANTS, SMART_FIELDS } from './link-limits.js';

/** Words the redirector or the API own; a link slug may not be one of them (docs/api.md, Links). */
export const RESERVED_SLUGS = [
  'api', 'v1', 'oauth', 'q', 'qr', 'healthz', 'readyz', 'docs', 'static', 'assets', 'metrics',
  'favicon.ico', 'robots.txt', '.well-known', 'admin', 'login', 'logout', 'app',
] as const;

export const LinkSlugSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'may hold only A-Z, a-z, 0-9, _ and -')
  .refine((s) => !(RESERVED_SLUGS as readonly string[]).includes(s.toLowerCase()), {
    error: (issue) => `"${String(issue.input)}" is a reserved word (the server's own paths use it)`,
  });

export const TagSchema = z.string().trim().min(1).max(50).transform((t) => t.toLowerCase());
export const LinkPasswordSchema = z.string().min(8).max(256);
export const LinkStatusSchema = z.enum(['active', 'expired', 'limit_reached']);
export type LinkStatus = z.infer<typeof LinkStatusSchema>;

const utm = z.string().trim().min(1).max(256);

// Smart links (rules, variants, app links, previews): each value comes back exactly as sent.

export { DEVICES, MAX_RULES, MAX_VARIANTS, SMART_FIELDS, BULK_MAX };

/** One value or a list of them; a rule matches when the visitor's value is any of them. */
const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1).max(250)]);
const name = z.string().trim().min(1).max(64);

export const RuleWhenSchema = z
  .strictObject({
    /** ISO 3166-1 alpha-2 codes, any case. */
    country: oneOrMany(z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')).optional(),
    device: oneOrMany(z.enum(DEVICES)).optional(),
    /** As the analytics name it (iOS, Android, macOS, Windows, Linux...), any case. */
    os: oneOrMany(name).optional(),
    /** As the analytics name it (Chrome, Safari, Firefox, Microsoft Edge...), any case. */
    browser: oneOrMany(name).optional(),
    /** Primary language subtags (`de`, `en`), matched against the first Accept-Language entry. */
    language: oneOrMany(z.string().regex(/^[A-Za-z]{1,8}$/, 'must be a primary language subtag such as de or en')).optional(),
    /** The rule applies from this time on (inclusive)... */
    after: TimestampSchema.optional(),
    /** ...and until this time (exclusive). */
    before: TimestampSchema.optional(),
  })
  .refine((w) => Object.keys(w).length > 0, 'must hold at least one condition (country, device, os, browser, language, after, before)')
  .refine((w) => !(w.after && w.before) || Date.parse(w.after) < Date.parse(w.before), 'after must be earlier than before')
  .meta({ id: 'LinkRuleWhen' });
export type RuleWhen = z.infer<typeof RuleWhenSchema>;

export const LinkRuleSchema = z.strictObject({ when: RuleWhenSchema, url: DestinationUrlSchema });
export type LinkRule = z.infer<typeof LinkRuleSchema>;

export const LinkVariantSchema = z.strictObject({ url: DestinationUrlSchema, weight: z.number().int().min(0).max(100) });
export type LinkVariant = z.infer<typeof LinkVariantSchema>;

// As a link carries them (the destination already normalised: no transform on the way out).
const LinkRuleOutputSchema = z.object({ when: RuleWhenSchema, url: z.string() }).meta({ id: 'LinkRule' });
const LinkVariantOutputSchema = z.object({ url: z.string(), weight: z.number().int() }).meta({ id: 'LinkVariant' });

export const LinkRulesSchema = z.array(LinkRuleSchema).min(1).max(MAX_RULES);
export const LinkVariantsSchema = z
  .array(LinkVariantSchema)
  .min(2, 'an A/B split needs 2 to 10 variants')
  .max(MAX_VARIANTS, 'an A/B split needs 2 to 10 variants')
  .refine((vs) => vs.reduce((sum, v) => sum + v.weight, 0) === 100, 'weights must sum to 100');

/**
 * Where iOS or Android visitors go: an https (or http) URL such as a universal link or store
 * page, or an app's own scheme (`myapp://open/42`) that opens the app from the browser; which
 * schemes count as an app's is app-links.ts's to say.
 */
export const AppLinkSchema = z
  .string()
  .max(2048)
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f-\u009f\\]/.test(s), 'may not contain control characters or a backslash')
  .superRefine((s, ctx) => {
    const problem = appLinkProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: `must be an http(s) URL or an app link (myapp://...): ${problem}` });
  })
  .meta({ example: 'https://apps.apple.com/app/id123456789' });


/** What link-preview crawlers (Slack, X, Facebook, ...) show for the short link. */
export const LinkPreviewSchema = z
  .strictObject({
    title: z.string().max(256).nullable().optional(),
    description: z.string().max(1024).nullable().optional(),
    image: HttpsUrlSchema.nullable().optional(),
  })
  .refine((p) => Boolean(p.title || p.description || p.image), 'give at least a title, a description or an image')
  .meta({ id: 'LinkPreview' });
export type LinkPreview = z.infer<typeof LinkPreviewSchema>;

export const HEALTH_STATUSES = ['ok', 'redirect', 'broken', 'unreachable'] as const;
/** The destination's last check: `statusCode` null when nothing answered. */
export const LinkHealthSchema = z
  .object({ status: z.enum(HEALTH_STATUSES), statusCode: z.number().int().nullable(), checkedAt: TimestampSchema })
  .meta({ id: 'LinkHealth' });
export type LinkHealth = z.infer<typeof LinkHealthSchema>;

/** The smart fields as create, update and the link object carry them (`null` when unset). */
const smartFields = {
  rules: LinkRulesSchema.nullable().optional(),
  variants: LinkVariantsSchema.nullable().optional(),
  ios: AppLinkSchema.nullable().optional(),
  android: AppLinkSchema.nullable().optional(),
  preview: LinkPreviewSchema.nullable().optional(),
};

export const CreateLinkBodySchema = z.strictObject({
  url: DestinationUrlSchema,
  slug: LinkSlugSchema.optional(),
  domain: z.string().min(1).max(253).optional(),
  title: z.string().max(256).nullable().optional(),
  description: z.string().max(1024).nullable().optional(),
  tags: z.array(TagSchema).max(20).optional(),
  expiresAt: TimestampSchema.nullable().optional(),
  expiredUrl: DestinationUrlSchema.nullable().optional(),
  maxClicks: z.number().int().positive().max(2_147_483_647).nullable().optional(),
  password: LinkPasswordSchema.nullable().optional(),
  utmSource: utm.nullable().optional(),
  utmMedium: utm.nullable().optional(),
  utmCampaign: utm.nullable().optional(),
  ...smartFields,
  /** Lifetime clicks at the service a link was imported from (docs/import.md). */
  importedClicks: z.number().int().nonnegative().max(2_147_483_647).nullable().optional(),
  /** When the link was created at the service it was imported from. */
  originalCreatedAt: TimestampSchema.nullable().optional(),
});
export type CreateLinkBody = z.input<typeof CreateLinkBodySchema>;

/** Any subset of the link's properties; `null` clears a field (a `null` password removes protection). */
export const UpdateLinkBodySchema = CreateLinkBodySchema.partial()
  .refine((b) => Object.keys(b).length > 0, 'name at least one field to change')
  .meta({ minProperties: 1 });
export type UpdateLinkBody = z.input<typeof UpdateLinkBodySchema>;

export const LinkSchema = z
  .object({
    id: idSchema('lnk'),
    slug: z.string(),
    domain: z.string(),
    url: z.string(),
    shortUrl: z.string(),
    title: z.string().nullable(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    expiresAt: TimestampSchema.nullable(),
    expiredUrl: z.string().nullable(),
    maxClicks: z.number().int().nullable(),
    passwordProtected: z.boolean(),
    clicks: z.number().int().describe(
      'Human clicks. Counted from the click log by a job: it may lag a visit by up to ~11 s on PostgreSQL ' +
        '(ten click flush intervals and a run) and ~2 s on the embedded database; exact at once for links ' +
        'with maxClicks, which count at the redirect. Analytics show a visit sooner.',
    ),
    status: LinkStatusSchema,
    rules: z.array(LinkRuleOutputSchema).nullable(),
    variants: z.array(LinkVariantOutputSchema).nullable(),
    ios: z.string().nullable(),
    android: z.string().nullable(),
    preview: LinkPreviewSchema.nullable(),
    importedClicks: z.number().int().nullable().describe(
      'Lifetime clicks carried over from the service the link was imported from; analytics add them to totalClicks.',
    ),
    originalCreatedAt: TimestampSchema.nullable().describe('When the link was created at the service it was imported from.'),
    /** Read-only: the destination's last check, null until checked. */
    health: LinkHealthSchema.nullable(),
    createdBy: idSchema('usr').nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Link' });
export type Link = z.infer<typeof LinkSchema>;

export { LINK_SORTS } from './constants.js';

export const ListLinksQuerySchema = PageQuerySchema.extend({
  sort: z.enum(LINK_SORTS).optional(),
  order: z.enum(['asc', 'desc']).default('desc'),
  domain: z.string().max(253).optional(),
  /** Comma-separated; a link must carry all of them. */
  tags: z.string().max(1100).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  createdAfter: TimestampSchema.optional(),
}).strict();
export type ListLinksQuery = z.input<typeof ListLinksQuerySchema>;

export const LinkParamsSchema = WorkspaceParamsSchema.extend({ linkId: idSchema('lnk') });
export const BareLinkParamsSchema = z.object({ linkId: idSchema('lnk') });

/** Each element is checked on its own so one bad link fails alone, not the whole batch. */
export const BulkCreateLinksBodySchema = z.array(z.unknown()).min(1).max(BULK_MAX);

/** Who `resolve` describes: every fact optional; `ua` gives device, OS and browser unless they are named. */
export const ResolveLinkQuerySchema = z.strictObject({
  country: z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code').optional(),
  device: z.enum(DEVICES).optional(),
  os: z.string().min(1).max(64).optional(),
  browser: z.string().min(1).max(64).optional(),
  /** A language tag or a whole Accept-Language value; its first entry's primary subtag is used. */
  language: z.string().min(1).max(256).optional(),
  ua: z.string().max(1024).optional(),
  /** The visitor's address, to pick the A/B variant this visitor gets today (not stored). */
  ip: z.union([z.ipv4(), z.ipv6()]).optional(),
  /** When the visit happens (default: now). */
  at: TimestampSchema.optional(),
});
export type ResolveLinkQuery = z.input<typeof ResolveLinkQuerySchema>;

export const TARGET_PATTERN = /^(default|ios|android|rule:\d+|variant:\d+)$/;
/** Where a visitor goes and why: `target` is `ios`, `android`, `rule:N`, `variant:N` (0-based) or `default`. */
export const LinkResolutionSchema = z
  .object({
    /** null when the visitor would get an error page (an expired link without expiredUrl). */
    url: z.string().nullable(),
    target: z.string().regex(TARGET_PATTERN),
    reason: z.string(),
  })
  .meta({ id: 'LinkResolution' });
export type LinkResolution = z.infer<typeof LinkResolutionSchema>;
