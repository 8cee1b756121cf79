import { z } from 'zod';
import { envelope, listEnvelope, ListQuerySchema } from './envelope.js';
import type { Role } from './workspaces.js';
import type { Scope } from './scopes.js';
import {
  AuthResultSchema, LoginBodySchema, SignupBodySchema, UserSchema,
} from './users.js';
import {
  AdminUpdateWorkspaceBodySchema, AdminWorkspaceSchema, CreateWorkspaceBodySchema, MemberSchema,
  UpdateWorkspaceBodySchema, WorkspaceParamsSchema, WorkspaceSchema,
} from './workspaces.js';
import { UsageSchema } from './usage.js';
import { ApiKeyParamsSchema, ApiKeySchema, CreateApiKeyBodySchema, CreatedApiKeySchema } from './api-keys.js';
import {
  BareLinkParamsSchema, BulkCreateLinksBodySchema, CreateLinkBodySchema, LinkParamsSchema, LinkSchema,
  ListLinksQuerySchema, UpdateLinkBodySchema,
} from './links.js';
import { bulkResultSchema } from './bulk.js';
import {
  CreateWebhookBodySchema, CreatedWebhookSchema, DeliveryParamsSchema, DeliverySchema, ListDeliveriesQuerySchema,
  RotateSecretBodySchema, RotatedSecretSchema, StreamResultBodySchema, StreamResultSchema, TestWebhookBodySchema, UpdateWebhookBodySchema, WebhookParamsSchema,
  WebhookSchema, WebhookTestResultSchema,
} from './webhooks.js';
import {
  IntegrationCreateLinkBodySchema, IntegrationMeSchema, IntegrationPollQuerySchema, IntegrationSubscribeBodySchema,
  IntegrationWebhookParamsSchema, IntegrationWebhookSchema,
} from './integration.js';
import { AddDomainBodySchema, DomainParamsSchema, DomainSchema } from './domains.js';
import { RenameTagBodySchema, TagParamsSchema, TagSummarySchema } from './tags.js';
import { AnalyticsQuerySchema, AnalyticsSchema, WorkspaceAnalyticsQuerySchema } from './analytics.js';
import {
  CreateQrCodeBodySchema, LinkQrParamsSchema, ListQrCodesQuerySchema, QrAnalyticsQuerySchema, QrAnalyticsSchema,
  QrCodeSchema, QrParamsSchema,
} from './qr.js';
import {
  CreateInviteBodySchema, CreatedInviteSchema, InviteParamsSchema, InviteSchema, InviteTokenParamsSchema,
  MemberParamsSchema, UpdateMemberBodySchema,
} from './members.js';
import {
  CreateOAuthClientBodySchema, CreatedOAuthClientSchema, OAuthClientParamsSchema, OAuthClientSchema,
} from './oauth.js';

/**
 * Who may call a route:
 * - `public`: anyone;
 * - `credential`: a session, an API key or an OAuth token, checked against `scope` and `role`;
 * - `session`: a dashboard session only (used where a key must not act, e.g. creating workspaces
 *   is allowed to keys too, so it is rare);
 * - `admin`: the operator's `X-Admin-Token`.
 */
export type RouteAuth = 'public' | 'credential' | 'session' | 'admin';

/**
 * Where a credential route's workspace comes from, resolved before its handler runs:
 * - `path`: the `:workspaceId` in its path;
 * - `link` / `qr`: the workspace of the link (`:linkId`) or QR code (`:qrId`) it names;
 * - `credential`: the workspace the API key or OAuth token is bound to (refused to other credentials);
 * - `none`: the route acts on the account, in no workspace.
 * Membership, role, scope and both rate-limit buckets are checked against that workspace.
 */
export type WorkspaceSource = 'path' | 'link' | 'qr' | 'credential' | 'none';

export interface RouteDef {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Fastify-style path (`:param`); the client fills it in, OpenAPI shows `{param}`. */
  path: string;
  summary: string;
  tag: string;
  auth: RouteAuth;
  /** Required for `credential` and `session` routes (the server refuses to start without it). */
  workspace?: WorkspaceSource;
  /** Scope a key or OAuth token must carry. */
  scope?: Scope;
  /** Weakest workspace role allowed, for routes acting in a workspace. */
  role?: Role;
  status: 200 | 201;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Honour `Idempotency-Key` (CONTRACT 4). */
  idempotent?: boolean;
  /** Answer the data itself, without the envelope (the integration surface under /api/v1). */
  bare?: boolean;
}

function route<const R extends RouteDef>(r: R): R {
  return r;
}

/** Every endpoint of the API: one entry each, shared by the server, the client and the docs. */
export const routes = {
  // Accounts
  signup: route({
    method: 'POST', path: '/v1/auth/signup', summary: 'Create an account', tag: 'auth', auth: 'public',
    status: 201, body: SignupBodySchema, response: envelope(AuthResultSchema),
  }),
  login: route({
    method: 'POST', path: '/v1/auth/login', summary: 'Log in and get a session token', tag: 'auth',
    auth: 'public', status: 200, body: LoginBodySchema, response: envelope(AuthResultSchema),
  }),
  getMe: route({
    method: 'GET', path: '/v1/me', summary: 'The user behind the credential', tag: 'auth',
    auth: 'credential', workspace: 'none', status: 200, response: envelope(UserSchema),
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
  removeMember: route({
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
  revokeInvite: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/invites/:inviteId', summary: 'Revoke a pending invite',
    tag: 'members', auth: 'credential', workspace: 'path', scope: 'workspace:write', role: 'admin', status: 200,
    params: InviteParamsSchema, response: envelope(InviteSchema),
  }),
  acceptInvite: route({
    method: 'POST', path: '/v1/invites/:token/accept', summary: 'Join a workspace with an invite sent to your e-mail',
    tag: 'members', auth: 'session', workspace: 'none', status: 200, params: InviteTokenParamsSchema, response: envelope(WorkspaceSchema),
  }),

  // API keys
  listApiKeys: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/api-keys', summary: 'API keys (admins see all, others their own)',
    tag: 'api-keys', auth: 'credential', workspace: 'path', scope: 'keys:manage', role: 'viewer', status: 200,
    params: WorkspaceParamsSchema, query: ListQuerySchema, response: listEnvelope(ApiKeySchema),
  }),
  createApiKey: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/api-keys', summary: 'Create an API key (shown once)',
    tag: 'api-keys', auth: 'credential', workspace: 'path', scope: 'keys:manage', role: 'viewer', status: 201,
    params: WorkspaceParamsSchema, body: CreateApiKeyBodySchema, response: envelope(CreatedApiKeySchema),
  }),
  deleteApiKey: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/api-keys/:keyId', summary: 'Revoke an API key',
    tag: 'api-keys', auth: 'credential', workspace: 'path', scope: 'keys:manage', role: 'viewer', status: 200,
    params: ApiKeyParamsSchema, response: envelope(ApiKeySchema),
  }),

  // OAuth clients (CONTRACT 2); the authorization server itself (/v1/oauth/*, /.well-known/...)
  // speaks RFC 6749 rather than the envelope and is registered beside the table.
  listOAuthClients: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/oauth-clients', summary: 'OAuth clients registered by a workspace',
    tag: 'oauth', auth: 'credential', workspace: 'path', scope: 'keys:manage', role: 'admin', status: 200,
    params: WorkspaceParamsSchema, query: ListQuerySchema, response: listEnvelope(OAuthClientSchema),
  }),
  createOAuthClient: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/oauth-clients',
    summary: 'Register an OAuth client (a confidential one gets a secret, shown once)', tag: 'oauth', auth: 'credential', workspace: 'path',
    scope: 'keys:manage', role: 'admin', status: 201, params: WorkspaceParamsSchema, body: CreateOAuthClientBodySchema,
    response: envelope(CreatedOAuthClientSchema),
  }),
  regenerateOAuthClientSecret: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/oauth-clients/:clientId/regenerate-secret',
    summary: 'Replace the secret of a confidential client (the old one stops working)', tag: 'oauth', auth: 'credential', workspace: 'path',
    scope: 'keys:manage', role: 'admin', status: 200, params: OAuthClientParamsSchema, response: envelope(CreatedOAuthClientSchema),
  }),
  deleteOAuthClient: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/oauth-clients/:clientId',
    summary: 'Delete an OAuth client and revoke every token issued to it', tag: 'oauth', auth: 'credential', workspace: 'path',
    scope: 'keys:manage', role: 'admin', status: 200, params: OAuthClientParamsSchema, response: envelope(OAuthClientSchema),
  }),

  // Operator
  adminUpdateWorkspace: route({
    method: 'PATCH', path: '/v1/admin/workspaces/:workspaceId', summary: "Set a workspace's plan (operator only)",
    tag: 'admin', auth: 'admin', status: 200, params: WorkspaceParamsSchema, body: AdminUpdateWorkspaceBodySchema,
    response: envelope(AdminWorkspaceSchema),
  }),

  // Links
  createLink: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/links', summary: 'Create a short link', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:write', role: 'member', status: 201, params: WorkspaceParamsSchema,
    body: CreateLinkBodySchema, response: envelope(LinkSchema), idempotent: true,
  }),
  bulkCreateLinks: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/links/bulk', summary: 'Create up to 100 links, each on its own',
    tag: 'links', auth: 'credential', workspace: 'path', scope: 'links:write', role: 'member', status: 200, params: WorkspaceParamsSchema,
    body: BulkCreateLinksBodySchema, response: envelope(z.array(bulkResultSchema(LinkSchema))), idempotent: true,
  }),
  listLinks: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/links', summary: 'List and search links', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:read', role: 'viewer', status: 200, params: WorkspaceParamsSchema,
    query: ListLinksQuerySchema, response: listEnvelope(LinkSchema),
  }),
  getLink: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/links/:linkId', summary: 'One link', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:read', role: 'viewer', status: 200, params: LinkParamsSchema,
    response: envelope(LinkSchema),
  }),
  updateLink: route({
    method: 'PATCH', path: '/v1/workspaces/:workspaceId/links/:linkId', summary: 'Change a link', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:write', role: 'member', status: 200, params: LinkParamsSchema,
    body: UpdateLinkBodySchema, response: envelope(LinkSchema),
  }),
  updateLinkById: route({
    method: 'PATCH', path: '/v1/links/:linkId', summary: 'Change a link, its workspace implied', tag: 'links',
    auth: 'credential', workspace: 'link', scope: 'links:write', role: 'member', status: 200, params: BareLinkParamsSchema,
    body: UpdateLinkBodySchema, response: envelope(LinkSchema),
  }),
  deleteLink: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/links/:linkId', summary: 'Delete a link', tag: 'links',
    auth: 'credential', workspace: 'path', scope: 'links:write', role: 'member', status: 200, params: LinkParamsSchema,
    response: envelope(LinkSchema),
  }),

  // Analytics
  getLinkAnalytics: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/links/:linkId/analytics', summary: 'Clicks of one link',
    tag: 'analytics', auth: 'credential', workspace: 'path', scope: 'analytics:read', role: 'viewer', status: 200,
    params: LinkParamsSchema, query: AnalyticsQuerySchema, response: envelope(AnalyticsSchema),
  }),
  getWorkspaceAnalytics: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/analytics', summary: 'Clicks across a workspace, with top links',
    tag: 'analytics', auth: 'credential', workspace: 'path', scope: 'analytics:read', role: 'viewer', status: 200,
    params: WorkspaceParamsSchema, query: WorkspaceAnalyticsQuerySchema, response: envelope(AnalyticsSchema),
  }),

  // QR codes (CONTRACT 7); the workspace is the link's. `GET /v1/qr/:qrId/download` (public, the
  // image bytes) is registered by the server beside these, outside the JSON table.
  createQrCode: route({
    method: 'POST', path: '/v1/links/:linkId/qr', summary: 'Create a QR code for a link (quota per plan and hour)',
    tag: 'qr', auth: 'credential', workspace: 'link', scope: 'links:write', role: 'member', status: 201, params: LinkQrParamsSchema,
    body: CreateQrCodeBodySchema, response: envelope(QrCodeSchema),
  }),
  listQrCodes: route({
    method: 'GET', path: '/v1/links/:linkId/qr', summary: 'QR codes of a link, newest first', tag: 'qr',
    auth: 'credential', workspace: 'link', scope: 'links:read', role: 'viewer', status: 200, params: LinkQrParamsSchema,
    query: ListQrCodesQuerySchema, response: listEnvelope(QrCodeSchema),
  }),
  getQrCode: route({
    method: 'GET', path: '/v1/qr/:qrId', summary: 'One QR code', tag: 'qr', auth: 'credential', workspace: 'qr', scope: 'links:read',
    role: 'viewer', status: 200, params: QrParamsSchema, response: envelope(QrCodeSchema),
  }),
  deleteQrCode: route({
    method: 'DELETE', path: '/v1/qr/:qrId', summary: 'Delete a QR code (printed copies stop working)', tag: 'qr',
    auth: 'credential', workspace: 'qr', scope: 'links:write', role: 'member', status: 200, params: QrParamsSchema,
    response: envelope(QrCodeSchema),
  }),
  getQrAnalytics: route({
    method: 'GET', path: '/v1/qr/:qrId/analytics', summary: 'Scans of one QR code', tag: 'qr', auth: 'credential', workspace: 'qr',
    scope: 'analytics:read', role: 'viewer', status: 200, params: QrParamsSchema, query: QrAnalyticsQuerySchema,
    response: envelope(QrAnalyticsSchema),
  }),

  // Custom domains (CONTRACT 8)
  listDomains: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/domains', summary: 'Custom domains of a workspace', tag: 'domains',
    auth: 'credential', workspace: 'path', scope: 'domains:read', role: 'viewer', status: 200, params: WorkspaceParamsSchema,
    query: ListQuerySchema, response: listEnvelope(DomainSchema),
  }),
  addDomain: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/domains', summary: 'Add a custom domain (verify it next)',
    tag: 'domains', auth: 'credential', workspace: 'path', scope: 'workspace:write', role: 'admin', status: 201, params: WorkspaceParamsSchema,
    body: AddDomainBodySchema, response: envelope(DomainSchema),
  }),
  verifyDomain: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/domains/:domainId/verify',
    summary: 'Check the TXT record at _hop-challenge.{name}; 400 with the reason when it does not match',
    tag: 'domains', auth: 'credential', workspace: 'path', scope: 'workspace:write', role: 'admin', status: 200, params: DomainParamsSchema,
    response: envelope(DomainSchema),
  }),
  removeDomain: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/domains/:domainId',
    summary: 'Remove a custom domain (409 while links use it)', tag: 'domains', auth: 'credential', workspace: 'path',
    scope: 'workspace:write', role: 'admin', status: 200, params: DomainParamsSchema, response: envelope(DomainSchema),
  }),

  // Tags (CONTRACT 8)
  listTags: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/tags', summary: 'Tags in use, with how many links carry each',
    tag: 'tags', auth: 'credential', workspace: 'path', scope: 'tags:read', role: 'viewer', status: 200, params: WorkspaceParamsSchema,
    query: ListQuerySchema, response: listEnvelope(TagSummarySchema),
  }),
  renameTag: route({
    method: 'PATCH', path: '/v1/workspaces/:workspaceId/tags/:name', summary: 'Rename a tag on every link (merging with an existing tag)',
    tag: 'tags', auth: 'credential', workspace: 'path', scope: 'links:write', role: 'admin', status: 200, params: TagParamsSchema,
    body: RenameTagBodySchema, response: envelope(TagSummarySchema),
  }),
  deleteTag: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/tags/:name', summary: 'Remove a tag from every link',
    tag: 'tags', auth: 'credential', workspace: 'path', scope: 'links:write', role: 'admin', status: 200, params: TagParamsSchema,
    response: envelope(TagSummarySchema),
  }),

  // Webhooks (Pro plan and up)
  listWebhooks: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/webhooks', summary: 'Webhooks of a workspace', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, params: WorkspaceParamsSchema,
    query: ListQuerySchema, response: listEnvelope(WebhookSchema),
  }),
  createWebhook: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/webhooks', summary: 'Create a webhook (secret shown once)',
    tag: 'webhooks', auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 201, params: WorkspaceParamsSchema,
    body: CreateWebhookBodySchema, response: envelope(CreatedWebhookSchema), idempotent: true,
  }),
  getWebhook: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId', summary: 'One webhook', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, params: WebhookParamsSchema,
    response: envelope(WebhookSchema),
  }),
  updateWebhook: route({
    method: 'PATCH', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId', summary: 'Change a webhook', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, params: WebhookParamsSchema,
    body: UpdateWebhookBodySchema, response: envelope(WebhookSchema),
  }),
  deleteWebhook: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId', summary: 'Delete a webhook', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, params: WebhookParamsSchema,
    response: envelope(WebhookSchema),
  }),
  rotateWebhookSecret: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId/rotate-secret',
    summary: 'Issue a new secret, optionally signing with the old one too for a grace period', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, params: WebhookParamsSchema,
    body: RotateSecretBodySchema, response: envelope(RotatedSecretSchema),
  }),
  testWebhook: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId/test',
    summary: 'Send a sample event now and report the answer', tag: 'webhooks', auth: 'credential', workspace: 'path',
    scope: 'webhooks:manage', role: 'admin', status: 200, params: WebhookParamsSchema, body: TestWebhookBodySchema,
    response: envelope(WebhookTestResultSchema),
  }),
  enableWebhook: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId/enable', summary: 'Re-enable a disabled webhook',
    tag: 'webhooks', auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200,
    params: WebhookParamsSchema, response: envelope(WebhookSchema),
  }),
  listDeliveries: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId/deliveries', summary: 'Delivery history',
    tag: 'webhooks', auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200,
    params: WebhookParamsSchema, query: ListDeliveriesQuerySchema, response: listEnvelope(DeliverySchema),
  }),
  retryDelivery: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId/deliveries/:deliveryId/retry',
    summary: 'Send a delivery again (same delivery id)', tag: 'webhooks', auth: 'credential', workspace: 'path', scope: 'webhooks:manage',
    role: 'admin', status: 200, params: DeliveryParamsSchema, response: envelope(DeliverySchema),
  }),

  reportStreamResult: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/events/stream/results',
    summary: 'Report what a local receiver answered to a forwarded stream event (hop webhooks tail)', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 201, params: WorkspaceParamsSchema,
    body: StreamResultBodySchema, response: envelope(StreamResultSchema),
  }),
  listStreamResults: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/events/stream/results',
    summary: 'Recent local results reported by hop webhooks tail, newest first', tag: 'webhooks', auth: 'credential', workspace: 'path',
    scope: 'webhooks:manage', role: 'admin', status: 200, params: WorkspaceParamsSchema, query: ListQuerySchema,
    response: listEnvelope(StreamResultSchema),
  }),

  // Integration surface for automation platforms: bare bodies, the credential's workspace.
  integrationSubscribe: route({
    method: 'POST', path: '/api/v1/webhooks', summary: 'REST hook: subscribe', tag: 'integration', auth: 'credential', workspace: 'credential',
    scope: 'webhooks:manage', role: 'admin', status: 201, body: IntegrationSubscribeBodySchema, response: IntegrationWebhookSchema, bare: true,
  }),
  integrationUnsubscribe: route({
    method: 'DELETE', path: '/api/v1/webhooks/:webhookId', summary: 'REST hook: unsubscribe', tag: 'integration',
    auth: 'credential', workspace: 'credential', scope: 'webhooks:manage', role: 'admin', status: 200, params: IntegrationWebhookParamsSchema,
    response: IntegrationWebhookSchema, bare: true,
  }),
  integrationCreateLink: route({
    method: 'POST', path: '/api/v1/links', summary: 'Create a link', tag: 'integration', auth: 'credential', workspace: 'credential',
    scope: 'links:write', role: 'member', status: 201, body: IntegrationCreateLinkBodySchema, response: LinkSchema, bare: true, idempotent: true,
  }),
  integrationPollLinks: route({
    method: 'GET', path: '/api/v1/links', summary: 'Polling trigger: newest links first', tag: 'integration',
    auth: 'credential', workspace: 'credential', scope: 'links:read', role: 'viewer', status: 200, query: IntegrationPollQuerySchema, response: z.array(LinkSchema), bare: true,
  }),
  integrationMe: route({
    method: 'GET', path: '/api/v1/me', summary: 'Connection test', tag: 'integration', auth: 'credential', workspace: 'credential', role: 'viewer', status: 200,
    response: IntegrationMeSchema, bare: true,
  }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
