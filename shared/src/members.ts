import { z } from 'zod';
import { idSchema, TimestampSchema } from './ids.js';
import { EmailSchema, InviteTokenSchema } from './users.js';
import { RoleSchema, WorkspaceParamsSchema } from './workspaces.js';

export const InviteSchema = z
  .object({
    id: idSchema('inv'),
    workspaceId: idSchema('ws'),
    email: z.string(),
    role: RoleSchema,
    invitedBy: idSchema('usr').nullable(),
    expiresAt: TimestampSchema,
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Invite' });
export type Invite = z.infer<typeof InviteSchema>;

/** Only the creation response carries the token and the address to accept it (docs/api.md, Wire conventions). */
export const CreatedInviteSchema = InviteSchema.extend({ token: z.string(), acceptUrl: z.string() });
export type CreatedInvite = z.infer<typeof CreatedInviteSchema>;

export const CreateInviteBodySchema = z.strictObject({ email: EmailSchema, role: RoleSchema });
export type CreateInviteBody = z.infer<typeof CreateInviteBodySchema>;

/** What the invite's page shows before it is accepted: whose workspace, who invited, as what. */
export const InvitePreviewSchema = z
  .object({
    workspaceName: z.string(),
    inviterName: z.string().nullable(),
    email: z.string(),
    role: RoleSchema,
    expiresAt: TimestampSchema,
  })
  .meta({ id: 'InvitePreview' });
export type InvitePreview = z.infer<typeof InvitePreviewSchema>;

export const InviteParamsSchema = WorkspaceParamsSchema.extend({ inviteId: idSchema('inv') });
export const InviteTokenParamsSchema = z.object({ token: InviteTokenSchema });

export const MemberParamsSchema = WorkspaceParamsSchema.extend({ userId: idSchema('usr') });
export const UpdateMemberBodySchema = z.strictObject({ role: RoleSchema });
export type UpdateMemberBody = z.infer<typeof UpdateMemberBodySchema>;
