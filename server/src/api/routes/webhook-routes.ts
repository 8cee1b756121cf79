import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function webhookRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { webhooks, streamResults } = deps.services;
  defineRoute(app, deps, 'listWebhooks', async ({ membership, query }) => webhooks.list(membership.workspaceId, query));
  defineRoute(app, deps, 'createWebhook', async ({ membership, principal, body }) => ({
    data: await webhooks.create(membership, principal.userId, body),
  }));
  defineRoute(app, deps, 'getWebhook', async ({ membership, params }) => ({ data: await webhooks.get(membership.workspaceId, params.webhookId) }));
  defineRoute(app, deps, 'updateWebhook', async ({ membership, params, body }) => ({ data: await webhooks.update(membership, params.webhookId, body) }));
  defineRoute(app, deps, 'deleteWebhook', async ({ membership, params }) => ({ data: await webhooks.delete(membership.workspaceId, params.webhookId) }));
  defineRoute(app, deps, 'rotateWebhookSecret', async ({ membership, params, body }) => ({
    data: await webhooks.rotateSecret(membership, params.webhookId, body?.graceSeconds),
  }));
  defineRoute(app, deps, 'testWebhook', async ({ membership, params, body }) => ({ data: await webhooks.test(membership, params.webhookId, body?.type) }));
  defineRoute(app, deps, 'enableWebhook', async ({ membership, params }) => ({ data: await webhooks.enable(membership, params.webhookId) }));
  defineRoute(app, deps, 'listDeliveries', async ({ membership, params, query }) =>
    webhooks.deliveries(membership.workspaceId, params.webhookId, query));
  defineRoute(app, deps, 'retryDelivery', async ({ membership, params }) => ({
    data: await webhooks.retry(membership, params.webhookId, params.deliveryId),
  }));
  defineRoute(app, deps, 'reportStreamResult', async ({ membership, principal, body }) => ({
    data: await streamResults.report(membership.workspaceId, principal.credentialId, body),
  }));
  defineRoute(app, deps, 'listStreamResults', async ({ membership, query }) => streamResults.list(membership.workspaceId, query));
}
