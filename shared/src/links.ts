import { z } from 'zod';
import { idSchema, TimestampSchema } from './ids.js';
import { PageQuerySchema } from './envelope.js';
import { WorkspaceParamsSchema } from './workspaces.js';

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
  .refine((s) => !(RESERVED_SLUGS as readonly string[]).includes(s.toLowerCase()), 'is a reserved word');

/**
 * An absolute http(s) URL of at most 2,048 characters, stored normalised (WHATWG URL: scheme and
 * host lower-cased, IDN hosts in punycode, IPv4 written as dotted quads, default ports and dot
 * segments dropped). Control characters and backslashes are refused rather than silently dropped
 * or read as `/`, so the URL stored is the one the user meant and the one checked for loops.
 */
export const DestinationUrlSchema = z
  .string()
  .max(2048)
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s), 'may not contain control characters (such as CR or LF)')
  .refine((s) => !s.includes('\\'), 'may not contain a backslash')
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0 && /^https?:\/\//i.test(s);
    } catch {
      return false;
    }
  }, 'must be an absolute http or https URL')
  .transform((s, ctx) => {
    let href = s;
    try {
      href = new URL(s).href;
    } catch {
      return s; // already reported above
    }
    if (href.length > 2048) ctx.addIssue({ code: 'custom', message: 'is longer than 2,048 characters once normalised' });
    return href;
  })
  .meta({ example: 'https://example.com/launch' });

export const TagSchema = z.string().trim().min(1).max(50).transform((t) => t.toLowerCase());
export const LinkPasswordSchema = z.string().min(8).max(256);
export const LinkStatusSchema = z.enum(['active', 'expired', 'limit_reached']);
export type LinkStatus = z.infer<typeof LinkStatusSchema>;

const utm = z.string().trim().min(1).max(256);

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
});
export type CreateLinkBody = z.input<typeof CreateLinkBodySchema>;

/** Any subset of the link's properties; `null` clears a field (a `null` password removes protection). */
export const UpdateLinkBodySchema = CreateLinkBodySchema.partial()
  .refine((b) => Object.keys(b).length > 0, 'name at least one field to change');
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
      'Human clicks. Counted from the click log by a job every second: it may lag a visit by up to ~3 s ' +
        '(exact at once for links with maxClicks, which count at the redirect).',
    ),
    status: LinkStatusSchema,
    createdBy: idSchema('usr').nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Link' });
export type Link = z.infer<typeof LinkSchema>;

export const LINK_SORTS = ['createdAt', 'updatedAt', 'clicks', 'relevance'] as const;

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

export const BULK_MAX = 100;
/** Each element is checked on its own so one bad link fails alone, not the whole batch. */
export const BulkCreateLinksBodySchema = z.array(z.unknown()).min(1).max(BULK_MAX);
