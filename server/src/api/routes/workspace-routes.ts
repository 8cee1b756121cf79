import type { FastifyInstance } from 'fastify';
import { PLAN_LIMITS } from '../../domain/plans/plan-limits.js';
import type { BucketStatus } from '../../domain/rate-limits/rate-limiter.js';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function workspaceRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { workspaces } = deps.services;
  // A credential bound to one workspace lists only that one.
  defineRoute(app, deps, 'listWorkspaces', async ({ actor, query }) => workspaces.list(actor.userId, query, actor.workspaceId));
  defineRoute(app, deps, 'createWorkspace', async ({ actor, body }) => {
    const ws = await workspaces.create(actor.userId, body);
    // The creator's best plan may have changed (HOP_DEFAULT_PLAN above free): forget the cached one.
    deps.services.rateLimits.planChanged(ws.id);
    return { data: ws };
  });
  defineRoute(app, deps, 'getWorkspace', async ({ actor }) => ({ data: await workspaces.get(actor.userId, actor.workspaceId) }));
  defineRoute(app, deps, 'updateWorkspace', async ({ actor, body }) => ({ data: await workspaces.update(actor.userId, actor.workspaceId, body.name) }));
  defineRoute(app, deps, 'deleteWorkspace', async ({ actor }) => ({ data: await workspaces.delete(actor.userId, actor.workspaceId) }));
  defineRoute(app, deps, 'getUsage', async ({ actor }) => {
    const { plan, limits, windows } = await deps.services.rateLimits.usage(actor.workspaceId);
    const window = (w: BucketStatus) => ({ limit: w.limit, remaining: w.remaining, resetAt: new Date(w.resetAt).toISOString() });
    return {
      data: {
        plan,
        limits: {
          requestsPerHour: limits?.perHour ?? null, requestsPerMinute: limits?.perMinute ?? null,
          qrPerHour: PLAN_LIMITS[plan].qrPerHour, clickRetentionDays: PLAN_LIMITS[plan].clickRetentionDays,
        },
        rateLimit: windows && { hour: window(windows.hour), minute: window(windows.minute) },
        qr: await deps.services.qr.quota({ workspaceId: actor.workspaceId, plan }),
      },
    };
  });
  defineRoute(app, deps, 'adminUpdateWorkspace', async ({ params, body }) => {
    const data = await workspaces.adminUpdate(params.workspaceId, body);
    deps.services.rateLimits.planChanged(params.workspaceId);
    await deps.services.webhooks.planChanged(params.workspaceId);
    return { data };
  });
}
