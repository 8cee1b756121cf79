import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function domainRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { domains } = deps.services;
  defineRoute(app, deps, 'listDomains', async ({ actor, query }) => domains.list(actor.workspaceId, query));
  defineRoute(app, deps, 'addDomain', async ({ actor, body }) => ({ data: await domains.add(actor.workspaceId, body.name) }));
  defineRoute(app, deps, 'verifyDomain', async ({ actor, params }) => ({ data: await domains.verify(actor.workspaceId, params.domainId) }));
  defineRoute(app, deps, 'deleteDomain', async ({ actor, params }) => ({ data: await domains.delete(actor.workspaceId, params.domainId) }));
}
