import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function analyticsRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { analytics } = deps.services;
  defineRoute(app, deps, 'getLinkAnalytics', async ({ actor, params, query }) => ({
    data: await analytics.forLink({ workspaceId: actor.workspaceId, plan: actor.plan, linkId: params.linkId }, query),
  }));
  defineRoute(app, deps, 'getWorkspaceAnalytics', async ({ actor, query }) => {
    const { linkId, domain, tags, ...range } = query;
    return { data: await analytics.forWorkspace({ workspaceId: actor.workspaceId, plan: actor.plan, linkId, domain, tags }, range) };
  });
}
