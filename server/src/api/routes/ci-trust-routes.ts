import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

/** CI trusts (docs/ci.md); the exchange is a grant of the token endpoint (oauth-routes.ts). */
export async function ciTrustRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { ciTrusts } = deps.services;
  defineRoute(app, deps, 'listCiTrusts', async ({ actor, query }) => ciTrusts.list(actor.workspaceId, query));
  defineRoute(app, deps, 'createCiTrust', async ({ actor, body }) => ({ data: await ciTrusts.create(actor, body) }));
  defineRoute(app, deps, 'getCiTrust', async ({ actor, params }) => ({ data: await ciTrusts.get(actor.workspaceId, params.trustId) }));
  defineRoute(app, deps, 'deleteCiTrust', async ({ actor, params }) => ({ data: await ciTrusts.delete(actor.workspaceId, params.trustId) }));
}
