import { PLAN_LIMITS } from '@hop/shared';

// The table lives in shared/, where the dashboard shows it too.
export { PLAN_LIMITS, type PlanLimits } from '@hop/shared';

/** SQL giving a workspace's click retention in days from its plan column (constants only). */
export const retentionDaysSql = (planColumn: string) =>
  `case ${planColumn} ${Object.entries(PLAN_LIMITS)
    .map(([plan, l]) => `when '${plan}' then ${l.clickRetentionDays}`)
    .join(' ')} else 30 end`;
