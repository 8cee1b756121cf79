import { z } from 'zod';
import { absoluteUrl } from './urls.js';
import { idSchema, TimestampSchema } from './ids.js';
import { CreateLinkBodySchema } from './links.js';
import { EventTypeSchema } from './events.js';

/**
 * The surface automation platforms call (docs/api.md, docs/api.md, Events and webhooks): bare bodies, the
 * workspace being the credential's.
 */
export const IntegrationSubscribeBodySchema = z.strictObject({
  targetUrl: absoluteUrl(),
  events: z.array(EventTypeSchema).min(1),
  /** Chosen by the platform, at least 32 characters; generated when absent. */
  secret: z.string().min(32).max(256).optional(),
});
export const IntegrationWebhookSchema = z.object({
  id: idSchema('wh'),
  targetUrl: z.string(),
  events: z.array(EventTypeSchema),
  active: z.boolean(),
  createdAt: TimestampSchema,
  /** Only when Hop generated the secret. */
  secret: z.string().optional(),
});
export const IntegrationWebhookParamsSchema = z.object({ webhookId: idSchema('wh') });
/** The fields a no-code step fills in: the destination, a slug, and the smart-link fields. */
export const IntegrationCreateLinkBodySchema = CreateLinkBodySchema.pick({
  url: true, slug: true, rules: true, variants: true, ios: true, android: true, preview: true,
});
export const IntegrationPollQuerySchema = z.strictObject({
  since: TimestampSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const IntegrationMeSchema = z.object({
  id: idSchema('usr'),
  email: z.string(),
  name: z.string(),
  workspace: z.object({ id: idSchema('ws'), name: z.string(), slug: z.string() }),
});
