import { z } from 'zod';
import { TimestampSchema } from './ids.js';
import { PlanSchema } from './workspaces.js';

/** One request window of a workspace: its limit, what is left and when it starts afresh. */
export const UsageWindowSchema = z.object({
  limit: z.number().int(),
  remaining: z.number().int(),
  resetAt: TimestampSchema,
});

/**
 * `GET /v1/workspaces/{ws}/usage`: the plan, its limits (docs/api.md, Limits) and what remains of
 * them. A null limit is no limit (every one of them on a self-hosted server).
 */
export const UsageSchema = z.object({
  plan: PlanSchema,
  limits: z.object({
    requestsPerHour: z.number().int().nullable(),
    requestsPerMinute: z.number().int().nullable(),
    qrPerHour: z.number().int().nullable(),
    /** Days of clicks kept; null keeps them for good. */
    clickRetentionDays: z.number().int().nullable(),
  }),
  /** Where the request windows stand; null when the plan has no request limit. */
  rateLimit: z.object({ hour: UsageWindowSchema, minute: UsageWindowSchema }).nullable(),
  /** QR codes created in the last hour; every field null on plans without a QR quota. */
  qr: z.object({
    limit: z.number().int().nullable(),
    remaining: z.number().int().nullable(),
    resetAt: TimestampSchema.nullable(),
  }),
});
export type Usage = z.infer<typeof UsageSchema>;
