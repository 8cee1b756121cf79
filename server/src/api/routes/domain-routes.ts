import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function domainRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { domains } = deps.services;
  defineRoute(app, deps, 'listDomains', async ({ params, query }) => domains.list(params.workspaceId, query));
  defineRoute(app, deps, 'addDomain', async ({ params, body }) => ({ data: await domains.add(params.workspaceId, body.name) }));
  defineRoute(app, deps, 'verifyDomain', async ({ params }) => ({ data: await domains.verify(params.workspaceId, params.domainId) }));
  defineRoute(app, deps, 'removeDomain', async ({ params }) => ({ data: await domains.remove(params.workspaceId, params.domainId) }));
}
