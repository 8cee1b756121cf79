import { PLANS } from './constants.js';
import type { AssignablePlan, Plan } from './workspaces.js';

/** null is unlimited. */
export interface PlanLimits {
  requestsPerHour: number | null;
  requestsPerMinute: number | null;
  /** QR codes created per hour. */
  qrPerHour: number | null;
  /** Days of clicks kept; null keeps them for good. */
  clickRetentionDays: number | null;
}

/**
 * docs/api.md, Limits, one row per plan: the server enforces it, the dashboard shows it ("what the next
 * plan gives"). Enterprise defaults to business and is tuned by the operator. A self-hosted server
 * (HOP_PLANS=off) has no limit of any kind but the per-address ones against abuse.
 */
export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { requestsPerHour: 100, requestsPerMinute: 20, qrPerHour: 10, clickRetentionDays: 30 },
  starter: { requestsPerHour: 1_000, requestsPerMinute: 100, qrPerHour: 100, clickRetentionDays: 90 },
  pro: { requestsPerHour: 10_000, requestsPerMinute: 500, qrPerHour: null, clickRetentionDays: 365 },
  business: { requestsPerHour: 50_000, requestsPerMinute: 2_000, qrPerHour: null, clickRetentionDays: 730 },
  enterprise: { requestsPerHour: 50_000, requestsPerMinute: 2_000, qrPerHour: null, clickRetentionDays: 730 },
  'self-hosted': { requestsPerHour: null, requestsPerMinute: null, qrPerHour: null, clickRetentionDays: null },
};

/**
 * Features that need a plan above free, and the weakest plan that has each (docs/api.md, Access);
 * every plan from there up has it, `self-hosted` included.
 */
export const GATED_FEATURES = {
  webhooks: 'pro',
  password_protection: 'pro',
} as const satisfies Record<string, AssignablePlan>;

export type GatedFeature = keyof typeof GATED_FEATURES;

/** Whether `plan` ranks at or above `required` (PLANS is weakest first). */
export const planAtLeast = (plan: Plan, required: Plan): boolean => PLANS.indexOf(plan) >= PLANS.indexOf(required);

/** The gated features a plan has. */
export const featuresOf = (plan: Plan): GatedFeature[] =>
  (Object.keys(GATED_FEATURES) as GatedFeature[]).filter((f) => planAtLeast(plan, GATED_FEATURES[f]));
