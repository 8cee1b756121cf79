import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function apiKeyRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { apiKeys } = deps.services;
  defineRoute(app, deps, 'listApiKeys', async ({ actor, query }) => apiKeys.list(actor, query));
  defineRoute(app, deps, 'createApiKey', async ({ actor, body }) => ({ data: await apiKeys.create(actor, body) }));
  defineRoute(app, deps, 'deleteApiKey', async ({ actor, params }) => ({ data: await apiKeys.delete(actor, params.keyId) }));
}
