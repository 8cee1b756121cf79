import { envelope, listEnvelope, ListQuerySchema } from '../envelope.js';
import { AuthResultSchema, LoginBodySchema, SignupBodySchema } from '../users.js';
import { MeSchema } from '../accounts.js';
import { CreateWorkspaceBodySchema, MemberSchema, UpdateWorkspaceBodySchema, WorkspaceParamsSchema, WorkspaceSchema } from '../workspaces.js';
import { UsageSchema } from '../usage.js';
import { ServerInfoSchema } from '../server-info.js';
import { CreatedInviteSchema, CreateInviteBodySchema, InviteParamsSchema, InvitePreviewSchema, InviteSchema, InviteTokenParamsSchema, MemberParamsSchema, UpdateMemberBodySchema } from '../members.js';
import { route } from './route-def.js';

/** The server, accounts, workspaces, members and invites. */
export const accountRoutes = {
  getServer: route({
    method: 'GET', path: '/v1/server', summary: 'The server: its version, mode (self-hosted or plans) and who may sign up',
    tag: 'server', auth: 'public', status: 200, response: envelope(ServerInfoSchema),
  }),
  // Accounts
  signup: route({
    method: 'POST', path: '/v1/auth/signup', summary: 'Create an account (as HOP_SIGNUP allows; with an invite, join its workspace)', tag: 'auth', auth: 'public',
    status: 201, body: SignupBodySchema, response: envelope(AuthResultSchema),
  }),
  login: route({
    method: 'POST', path: '/v1/auth/login', summary: 'Log in and get a session token', tag: 'auth',
    auth: 'public', status: 200, body: LoginBodySchema, response: envelope(AuthResultSchema),
  }),
  getMe: route({
    method: 'GET', path: '/v1/me', summary: 'The user behind the credential', tag: 'auth',
    auth: 'credential', workspace: 'none', status: 200, response: envelope(MeSchema),
  }),
  // Workspaces
  listWorkspaces: route({
    method: 'GET', path: '/v1/workspaces', summary: 'Workspaces the caller can access', tag: 'workspaces',
    auth: 'credential', workspace: 'none', scope: 'workspaces:read', status: 200, query: ListQuerySchema, response: listEnvelope(WorkspaceSchema),
  }),
  createWorkspace: route({
    method: 'POST', path: '/v1/workspaces', summary: 'Create a workspace; the caller becomes owner',
    tag: 'workspaces', auth: 'session', workspace: 'none', status: 201, body: CreateWorkspaceBodySchema,
    response: envelope(WorkspaceSchema),
  }),
  getWorkspace: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId', summary: 'One workspace', tag: 'workspaces',
    auth: 'credential', workspace: 'path', scope: 'workspace:read', role: 'viewer', status: 200, params: WorkspaceParamsSchema,
    response: envelope(WorkspaceSchema),
  }),
  updateWorkspace: route({
    method: 'PATCH', path: '/v1/workspaces/:workspaceId', summary: 'Rename a workspace', tag: 'workspaces',
    auth: 'credential', workspace: 'path', scope: 'workspace:write', role: 'owner', status: 200, params: WorkspaceParamsSchema,
    body: UpdateWorkspaceBodySchema, response: envelope(WorkspaceSchema),
  }),
  deleteWorkspace: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId', summary: 'Delete a workspace and everything in it',
    tag: 'workspaces', auth: 'credential', workspace: 'path', scope: 'workspace:write', role: 'owner', status: 200,
    params: WorkspaceParamsSchema, response: envelope(WorkspaceSchema),
  }),
  getUsage: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/usage', summary: 'The plan, its limits and the quota left (rate limits, QR codes)',
    tag: 'workspaces', auth: 'credential', workspace: 'path', scope: 'workspace:read', role: 'viewer', status: 200, params: WorkspaceParamsSchema,
    response: envelope(UsageSchema),
  }),
  listMembers: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/members', summary: 'Members of a workspace',
    tag: 'workspaces', auth: 'credential', workspace: 'path', scope: 'workspace:read', role: 'viewer', status: 200,
    params: WorkspaceParamsSchema, query: ListQuerySchema, response: listEnvelope(MemberSchema),
  }),

  updateMember: route({
    method: 'PATCH', path: '/v1/workspaces/:workspaceId/members/:userId', summary: "Change a member's role (owner only)",
    tag: 'members', auth: 'credential', workspace: 'path', scope: 'workspace:write', role: 'owner', status: 200,
    params: MemberParamsSchema, body: UpdateMemberBodySchema, response: envelope(MemberSchema),
  }),
  deleteMember: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/members/:userId',
    summary: 'Remove a member (admins), or leave (yourself)', tag: 'members', auth: 'credential', workspace: 'path',
    scope: 'workspace:write', role: 'viewer', status: 200, params: MemberParamsSchema, response: envelope(MemberSchema),
  }),
  createInvite: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/invites', summary: 'Invite someone by e-mail (token shown once)',
    tag: 'members', auth: 'credential', workspace: 'path', scope: 'workspace:write', role: 'admin', status: 201,
    params: WorkspaceParamsSchema, body: CreateInviteBodySchema, response: envelope(CreatedInviteSchema),
  }),
  listInvites: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/invites', summary: 'Pending invites', tag: 'members',
    auth: 'credential', workspace: 'path', scope: 'workspace:read', role: 'admin', status: 200, params: WorkspaceParamsSchema,
    query: ListQuerySchema, response: listEnvelope(InviteSchema),
  }),
  deleteInvite: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/invites/:inviteId', summary: 'Revoke a pending invite',
    tag: 'members', auth: 'credential', workspace: 'path', scope: 'workspace:write', role: 'admin', status: 200,
    params: InviteParamsSchema, response: envelope(InviteSchema),
  }),
  getInvite: route({
    method: 'GET', path: '/v1/invites/:token', summary: 'The workspace, inviter and role of an invite, by its token',
    tag: 'members', auth: 'public', status: 200, params: InviteTokenParamsSchema, response: envelope(InvitePreviewSchema),
  }),
  acceptInvite: route({
    method: 'POST', path: '/v1/invites/:token/accept', summary: 'Join a workspace with an invite sent to your e-mail',
    tag: 'members', auth: 'session', workspace: 'none', status: 200, params: InviteTokenParamsSchema, response: envelope(WorkspaceSchema),
  }),
};
