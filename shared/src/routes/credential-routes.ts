import { envelope, listEnvelope, ListQuerySchema } from '../envelope.js';
import { AdminUpdateWorkspaceBodySchema, AdminWorkspaceSchema, WorkspaceParamsSchema } from '../workspaces.js';
import { ApiKeyParamsSchema, ApiKeySchema, CreateApiKeyBodySchema, CreatedApiKeySchema } from '../api-keys.js';
import { CreatedOAuthClientSchema, CreateOAuthClientBodySchema, OAuthClientParamsSchema, OAuthClientSchema } from '../oauth.js';
import { route } from './route-def.js';

/** API keys, OAuth clients and the operator. */
export const credentialRoutes = {
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
  // OAuth clients (docs/api.md, Access); the authorization server itself (/v1/oauth/*, /.well-known/...)
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
};
