import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function analyticsRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { analytics } = deps.services;
  defineRoute(app, deps, 'getLinkAnalytics', async ({ membership, params, query }) => ({
    data: await analytics.forLink({ workspaceId: membership.workspaceId, plan: membership.plan, linkId: params.linkId }, query),
  }));
  defineRoute(app, deps, 'getWorkspaceAnalytics', async ({ membership, query }) => {
    const { linkId, domain, tags, ...range } = query;
    return { data: await analytics.forWorkspace({ workspaceId: membership.workspaceId, plan: membership.plan, linkId, domain, tags }, range) };
  });
}
