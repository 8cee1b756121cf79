import type { FastifyInstance } from 'fastify';
import { notFound } from '../../domain/errors.js';
import { defineRoute, type ApiDeps } from '../define-route.js';

/**
 * The integration surface (`/api/v1`) for automation platforms: bare bodies, and the workspace is
 * the one the API key or OAuth token was issued for (declared `workspace: 'credential'`).
 */
export async function integrationRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { webhooks, links, users, workspaces } = deps.services;

  defineRoute(app, deps, 'integrationSubscribe', async ({ actor, body }) => {
    const hook = await webhooks.create(actor, { url: body.targetUrl, events: body.events }, { secret: body.secret, source: 'integration' });
    return {
      data: {
        id: hook.id, targetUrl: hook.url, events: hook.events, active: hook.isActive, createdAt: hook.createdAt,
        ...(body.secret ? {} : { secret: hook.secret }),
      },
    };
  });
  defineRoute(app, deps, 'integrationUnsubscribe', async ({ actor, params }) => {
    const hook = await webhooks.delete(actor.workspaceId, params.webhookId);
    return { data: { id: hook.id, targetUrl: hook.url, events: hook.events, active: hook.isActive, createdAt: hook.createdAt } };
  });
  defineRoute(app, deps, 'integrationCreateLink', async ({ actor, body }) => ({ data: await links.create(actor, body) }));
  defineRoute(app, deps, 'integrationPollLinks', async ({ actor, query }) => {
    const page = await links.list(actor.workspaceId, { limit: query.limit, sort: 'createdAt', order: 'desc', createdAfter: query.since });
    return { data: page.data };
  });
  defineRoute(app, deps, 'integrationMe', async ({ actor }) => {
    const user = await users.get(actor.userId);
    const [w] = await workspaces.listForUser(actor.userId, actor.workspaceId);
    if (!w) throw notFound('workspace');
    return { data: { id: user.id, email: user.email, name: user.name, workspace: { id: w.id, name: w.name, slug: w.slug } } };
  });
}
