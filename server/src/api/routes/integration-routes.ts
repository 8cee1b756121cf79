import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../domain/auth/credentials.js';
import { HopError, notFound } from '../../domain/errors.js';
import { defineRoute, type ApiDeps } from '../define-route.js';
import { requireMembership } from '../plugins/authentication.js';
import { routes, type Role } from '@hop/shared';

/**
 * The integration surface (`/api/v1`) for automation platforms: bare bodies, and the workspace is
 * the one the API key or OAuth token was issued for.
 */
export async function integrationRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { webhooks, links, users, workspaces } = deps.services;

  async function workspaceOf(principal: Principal, role: Role) {
    if (!principal.workspaceId) {
      throw new HopError('FORBIDDEN', 'the integration API needs an API key or OAuth token bound to a workspace', { requiredCredential: 'apiKey' });
    }
    return requireMembership(deps.services, principal, principal.workspaceId, role);
  }

  defineRoute(app, deps, 'integrationSubscribe', async ({ principal, body }) => {
    const ws = await workspaceOf(principal, routes.integrationSubscribe.role);
    const hook = await webhooks.create(ws, principal.userId, { url: body.targetUrl, events: body.events }, { secret: body.secret, source: 'integration' });
    return {
      data: {
        id: hook.id, targetUrl: hook.url, events: hook.events, active: hook.isActive, createdAt: hook.createdAt,
        ...(body.secret ? {} : { secret: hook.secret }),
      },
    };
  });
  defineRoute(app, deps, 'integrationUnsubscribe', async ({ principal, params }) => {
    const ws = await workspaceOf(principal, routes.integrationUnsubscribe.role);
    const hook = await webhooks.delete(ws.workspaceId, params.webhookId);
    return { data: { id: hook.id, targetUrl: hook.url, events: hook.events, active: hook.isActive, createdAt: hook.createdAt } };
  });
  defineRoute(app, deps, 'integrationCreateLink', async ({ principal, body }) => {
    const ws = await workspaceOf(principal, routes.integrationCreateLink.role);
    return { data: await links.create({ ...ws, userId: principal.userId }, body) };
  });
  defineRoute(app, deps, 'integrationPollLinks', async ({ principal, query }) => {
    const ws = await workspaceOf(principal, routes.integrationPollLinks.role);
    const page = await links.list(ws.workspaceId, { limit: query.limit, sort: 'createdAt', order: 'desc', createdAfter: query.since });
    return { data: page.data };
  });
  defineRoute(app, deps, 'integrationMe', async ({ principal }) => {
    const ws = await workspaceOf(principal, routes.integrationMe.role);
    const user = await users.get(principal.userId);
    const [w] = await workspaces.listForUser(principal.userId, ws.workspaceId);
    if (!w) throw notFound('workspace');
    return { data: { id: user.id, email: user.email, name: user.name, workspace: { id: w.id, name: w.name, slug: w.slug } } };
  });
}
