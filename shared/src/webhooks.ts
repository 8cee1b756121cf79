import { z } from 'zod';
import { absoluteUrl } from './urls.js';
import { idSchema, TimestampSchema } from './ids.js';
import { PageQuerySchema } from './envelope.js';
import { WorkspaceParamsSchema } from './workspaces.js';
import { EVENT_TYPES, EventTypeSchema } from './events.js';

const WebhookUrlSchema = absoluteUrl();

export const WebhookSchema = z
  .object({
    id: idSchema('wh'),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(EventTypeSchema),
    isActive: z.boolean(),
    /** Exhausted deliveries in a row; at 10 the webhook is disabled. */
    consecutiveFailures: z.number().int(),
    disabledAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof WebhookSchema>;

export const CreateWebhookBodySchema = z.strictObject({
  url: WebhookUrlSchema,
  events: z.array(EventTypeSchema).min(1).max(EVENT_TYPES.length),
  description: z.string().max(500).nullable().optional(),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBodySchema>;

/** The creation response is the only one that holds the secret. */
export const CreatedWebhookSchema = WebhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

/** Any subset of the creation fields, plus `isActive`. */
export const UpdateWebhookBodySchema = CreateWebhookBodySchema.extend({ isActive: z.boolean() })
  .partial()
  .refine((b) => Object.keys(b).length > 0, 'name at least one field to change')
  .meta({ minProperties: 1 });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBodySchema>;

export const WebhookParamsSchema = WorkspaceParamsSchema.extend({ webhookId: idSchema('wh') });
export const DeliveryParamsSchema = WebhookParamsSchema.extend({ deliveryId: idSchema('dlv') });

/** Optional: keep signing with the old secret too for this long (at most a day). */
export const RotateSecretBodySchema = z.strictObject({ graceSeconds: z.number().int().min(0).max(86_400).optional() }).nullish();
export const RotatedSecretSchema = z.object({
  secret: z.string(),
  previousSecretExpiresAt: TimestampSchema.nullable(),
});

export const TestWebhookBodySchema = z.strictObject({ type: EventTypeSchema.optional() }).nullish();

/** `hop webhooks trigger`: a sample event of a type, to one webhook or (without `webhookId`) to the live tail. */
export const TriggerEventBodySchema = z.strictObject({ type: EventTypeSchema, webhookId: idSchema('wh').optional() });
export type TriggerEventBody = z.infer<typeof TriggerEventBodySchema>;
export const TriggerEventResultSchema = z.object({
  eventId: idSchema('evt'),
  type: EventTypeSchema,
  /** Where it went: one webhook (answered as `test` does) or the workspace's event stream. */
  target: z.enum(['webhook', 'tail']),
  webhookId: idSchema('wh').nullable(),
  success: z.boolean(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});
export type TriggerEventResult = z.infer<typeof TriggerEventResultSchema>;

export const DeliveryAttemptSchema = z.object({
  number: z.number().int(),
  at: TimestampSchema,
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});

export const DeliveryStatusSchema = z.enum(['pending', 'succeeded', 'failed']);

export const DeliverySchema = z
  .object({
    id: idSchema('dlv'),
    webhookId: idSchema('wh'),
    eventId: idSchema('evt'),
    eventType: EventTypeSchema,
    status: DeliveryStatusSchema,
    attempts: z.array(DeliveryAttemptSchema),
    nextAttemptAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof DeliverySchema>;

/** The answer of `test`: what the endpoint said to one synchronous attempt. */
export const WebhookTestResultSchema = z.object({
  eventId: idSchema('evt'),
  success: z.boolean(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});

export const ListDeliveriesQuerySchema = PageQuerySchema.extend({ status: DeliveryStatusSchema.optional() }).strict();

export const EventStreamQuerySchema = z.strictObject({
  /** Comma-separated event types; all when absent. */
  events: z.string().max(200).optional(),
});

/** A local receiver's answer to a forwarded stream event, reported back by `hop webhooks tail`. */
export const StreamResultBodySchema = z.strictObject({
  eventId: idSchema('evt'),
  deliveryId: idSchema('dlv'),
  /** The local URL the event was forwarded to (shown in the log). */
  forwardedTo: z.string().max(2048).nullable(),
  statusCode: z.number().int().min(0).max(999).nullable(),
  durationMs: z.number().int().min(0).max(3_600_000),
  error: z.string().max(500).nullable(),
});
export type StreamResultBody = z.infer<typeof StreamResultBodySchema>;

export const StreamResultSchema = StreamResultBodySchema.extend({ eventType: EventTypeSchema, at: TimestampSchema })
  .meta({ id: 'StreamResult' });
export type StreamResult = z.infer<typeof StreamResultSchema>;

