import type { FastifyInstance } from 'fastify';
import { PLAN_LIMITS } from '../../domain/plans/plan-limits.js';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function workspaceRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { workspaces } = deps.services;
  defineRoute(app, deps, 'listWorkspaces', async ({ principal, query }) => workspaces.list(principal.userId, query, principal.workspaceId));
  defineRoute(app, deps, 'createWorkspace', async ({ principal, body }) => ({ data: await workspaces.create(principal.userId, body) }));
  defineRoute(app, deps, 'getWorkspace', async ({ principal, params }) => ({ data: await workspaces.get(principal.userId, params.workspaceId) }));
  defineRoute(app, deps, 'updateWorkspace', async ({ principal, params, body }) => ({
    data: await workspaces.rename(principal.userId, params.workspaceId, body.name),
  }));
  defineRoute(app, deps, 'deleteWorkspace', async ({ principal, params }) => ({ data: await workspaces.delete(principal.userId, params.workspaceId) }));
  defineRoute(app, deps, 'listMembers', async ({ params, query }) => workspaces.members(params.workspaceId, query));
  defineRoute(app, deps, 'getUsage', async ({ membership }) => {
    const { plan, limits, hour, minute } = await deps.services.rateLimits.usage(membership.workspaceId);
    const window = (w: typeof hour) => ({ limit: w.limit, remaining: w.remaining, resetAt: new Date(w.resetAt).toISOString() });
    return {
      data: {
        plan,
        limits: { requestsPerHour: limits.perHour, requestsPerMinute: limits.perMinute, qrPerHour: PLAN_LIMITS[plan].qrPerHour, clickRetentionDays: PLAN_LIMITS[plan].clickRetentionDays },
        rateLimit: { hour: window(hour), minute: window(minute) },
        qr: await deps.services.qr.quota({ workspaceId: membership.workspaceId, plan }),
      },
    };
  });
  defineRoute(app, deps, 'adminUpdateWorkspace', async ({ params, body }) => {
    const data = await workspaces.adminUpdate(params.workspaceId, body);
    deps.services.rateLimits.planChanged(params.workspaceId);
    return { data };
  });
}
