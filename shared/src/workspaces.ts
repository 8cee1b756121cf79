import { z } from 'zod';
import { idSchema, TimestampSchema } from './ids.js';
import { ASSIGNABLE_PLANS, PLANS, ROLES } from './constants.js';

export { ASSIGNABLE_PLANS, PLANS, ROLES };

export const AssignablePlanSchema = z.enum(ASSIGNABLE_PLANS);
export type AssignablePlan = z.infer<typeof AssignablePlanSchema>;

export const PlanSchema = z.enum(PLANS);
export type Plan = z.infer<typeof PlanSchema>;

export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

export const WorkspaceSlugSchema = z
  .string()
  .min(3)
  .max(48)
  .regex(/^[a-z0-9-]+$/, 'may hold only a-z, 0-9 and -');

export const WorkspaceSchema = z
  .object({
    id: idSchema('ws'),
    name: z.string(),
    slug: z.string(),
    role: RoleSchema,
    plan: PlanSchema,
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Workspace' });
export type Workspace = z.infer<typeof WorkspaceSchema>;

export const WorkspaceParamsSchema = z.object({ workspaceId: idSchema('ws') });

export const CreateWorkspaceBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  slug: WorkspaceSlugSchema,
});
export type CreateWorkspaceBody = z.infer<typeof CreateWorkspaceBodySchema>;

/** Only the name changes; the slug is immutable, so naming it is refused (docs/api.md, Access). */
export const UpdateWorkspaceBodySchema = z.strictObject({ name: z.string().trim().min(1).max(100) });
export type UpdateWorkspaceBody = z.infer<typeof UpdateWorkspaceBodySchema>;

export const MemberSchema = z
  .object({
    userId: idSchema('usr'),
    email: z.string(),
    name: z.string(),
    role: RoleSchema,
    joinedAt: TimestampSchema,
  })
  .meta({ id: 'Member' });
export type Member = z.infer<typeof MemberSchema>;

/** Operator-only plan change (`X-Admin-Token`). `rateLimit` sets enterprise limits. Applies in plans mode. */
export const AdminUpdateWorkspaceBodySchema = z.strictObject({
  plan: AssignablePlanSchema,
  rateLimit: z
    .strictObject({
      perHour: z.number().int().positive().max(10_000_000),
      perMinute: z.number().int().positive().max(1_000_000),
    })
    .nullable()
    .optional(),
});
export type AdminUpdateWorkspaceBody = z.infer<typeof AdminUpdateWorkspaceBodySchema>;

export const AdminWorkspaceSchema = z.object({
  id: idSchema('ws'),
  name: z.string(),
  slug: z.string(),
  /** The stored plan, which applies in plans mode (a self-hosted server keeps it for when plans are turned on). */
  plan: AssignablePlanSchema,
  rateLimit: z.object({ perHour: z.number().int(), perMinute: z.number().int() }).nullable(),
  createdAt: TimestampSchema,
});
export type AdminWorkspace = z.infer<typeof AdminWorkspaceSchema>;
