import type { Plan } from './workspaces.js';

export interface PlanLimits {
  requestsPerHour: number;
  requestsPerMinute: number;
  /** QR codes created per hour; null is unlimited. */
  qrPerHour: number | null;
  clickRetentionDays: number;
}

/**
 * docs/api.md, Limits, one row per plan: the server enforces it, the dashboard shows it ("what the next
 * plan gives"). Enterprise defaults to business and is tuned by the operator.
 */
export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { requestsPerHour: 100, requestsPerMinute: 20, qrPerHour: 10, clickRetentionDays: 30 },
  starter: { requestsPerHour: 1_000, requestsPerMinute: 100, qrPerHour: 100, clickRetentionDays: 90 },
  pro: { requestsPerHour: 10_000, requestsPerMinute: 500, qrPerHour: null, clickRetentionDays: 365 },
  business: { requestsPerHour: 50_000, requestsPerMinute: 2_000, qrPerHour: null, clickRetentionDays: 730 },
  enterprise: { requestsPerHour: 50_000, requestsPerMinute: 2_000, qrPerHour: null, clickRetentionDays: 730 },
};

/** Features that need a plan above free, and the weakest plan that has each (docs/api.md, Access). */
export const GATED_FEATURES = {
  webhooks: 'pro',
  password_protection: 'pro',
} as const satisfies Record<string, Plan>;
