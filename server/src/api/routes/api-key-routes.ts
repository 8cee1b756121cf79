import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function apiKeyRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { apiKeys } = deps.services;
  defineRoute(app, deps, 'listApiKeys', async ({ principal, membership, query }) =>
    apiKeys.list(membership.workspaceId, principal.userId, membership.role, query));
  defineRoute(app, deps, 'createApiKey', async ({ principal, membership, body }) => ({
    data: await apiKeys.create(membership.workspaceId, principal.userId, body),
  }));
  defineRoute(app, deps, 'deleteApiKey', async ({ principal, membership, params }) => ({
    data: await apiKeys.revoke(membership.workspaceId, params.keyId, principal.userId, membership.role),
  }));
}
