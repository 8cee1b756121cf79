import type { GatedFeature, Plan } from '@hop/shared';
import { dashboardPath, GATED_FEATURES, PLANS, planAtLeast } from '@hop/shared';
import { HopError } from '../errors.js';

// Shared with the dashboard, which says what the next plan unlocks.
export { GATED_FEATURES, planAtLeast, type GatedFeature };

/** The plans that have a feature, for queries that filter workspaces by plan (through PlanMode.planSql). */
export function plansWith(feature: GatedFeature): Plan[] {
  return PLANS.filter((p) => planAtLeast(p, GATED_FEATURES[feature]));
}

/** Throws TIER_REQUIRED, with where to upgrade, when the workspace's plan lacks the feature. */
export function requireFeature(
  feature: GatedFeature,
  workspace: { plan: Plan; slug: string },
  dashboardUrl: string,
): void {
  const requiredPlan = GATED_FEATURES[feature];
  if (planAtLeast(workspace.plan, requiredPlan)) return;
  throw new HopError('TIER_REQUIRED', `${feature.replace('_', ' ')} needs the ${requiredPlan} plan or higher`, {
    feature,
    currentPlan: workspace.plan,
    requiredPlan,
    upgradeUrl: `${dashboardUrl}${dashboardPath('billing', { ws: workspace.slug })}`,
  });
}

/** Where a workspace lacking a feature is sent to upgrade: the dashboard's billing page. */
export type FeatureGate = (feature: GatedFeature, workspace: { plan: Plan; slug: string }) => void;

/** requireFeature with the server's dashboard: what the access hook and the body-dependent checks call. */
export const createFeatureGate = (dashboardUrl: string): FeatureGate => (feature, workspace) => requireFeature(feature, workspace, dashboardUrl);
