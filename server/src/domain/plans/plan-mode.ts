import type { AssignablePlan, Plan } from '@hop/shared';

/** HOP_PLANS: `self-hosted` (off, the default) or `plans` (on). */
export type PlanModeName = 'self-hosted' | 'plans';

/**
 * The one place the server's mode decides anything (docs/adr/, Self-hosted or plans).
 * A workspace stores an assignable plan; every read of it, in SQL or in code, goes through here.
 * A self-hosted server reads every workspace as `self-hosted`, the plan with every feature and no
 * limit, whatever it stores; in plans mode the stored plan is the plan. Gates, quotas and retention
 * then follow from the plan read, by the same code in both modes, and a server turned from one
 * mode to the other applies the stored plans at once, with nothing to migrate.
 */
export function createPlanMode(mode: PlanModeName) {
  const selfHosted = mode === 'self-hosted';
  return {
    mode,
    /** The plan of a workspace that stores `stored` (or of an account outside any workspace, `free`). */
    planOf: (stored: AssignablePlan | Plan): Plan => (selfHosted ? 'self-hosted' : stored),
    /** SQL reading the plan of a workspace from its plan column (`w.plan`). */
    planSql: (column: string): string => (selfHosted ? `'self-hosted'::text` : column),
  };
}

export type PlanMode = ReturnType<typeof createPlanMode>;
