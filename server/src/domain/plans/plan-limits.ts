import { ASSIGNABLE_PLANS, PLAN_LIMITS, PLANS } from '@hop/shared';

// The table lives in shared/, where the dashboard shows it too.
export { PLAN_LIMITS, type PlanLimits } from '@hop/shared';

/** The longest click retention of any plan that has one (the self-hosted plan keeps clicks for good). */
export const LONGEST_RETENTION_DAYS = Math.max(...ASSIGNABLE_PLANS.map((p) => PLAN_LIMITS[p].clickRetentionDays ?? 0));

/**
 * SQL giving a workspace's click retention in days from its plan (PlanMode.planSql), null to keep
 * its clicks for good (constants only).
 */
export const retentionDaysSql = (plan: string) =>
  `case ${plan} ${PLANS.map((p) => `when '${p}' then ${PLAN_LIMITS[p].clickRetentionDays ?? 'null'}`).join(' ')} else 30 end`;
