import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function webhookRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { webhooks, streamResults, triggerEvent } = deps.services;
  defineRoute(app, deps, 'listWebhooks', async ({ actor, query }) => webhooks.list(actor.workspaceId, query));
  defineRoute(app, deps, 'createWebhook', async ({ actor, body }) => ({ data: await webhooks.create(actor, body) }));
  defineRoute(app, deps, 'getWebhook', async ({ actor, params }) => ({ data: await webhooks.get(actor.workspaceId, params.webhookId) }));
  defineRoute(app, deps, 'updateWebhook', async ({ actor, params, body }) => ({ data: await webhooks.update(actor, params.webhookId, body) }));
  defineRoute(app, deps, 'deleteWebhook', async ({ actor, params }) => ({ data: await webhooks.delete(actor.workspaceId, params.webhookId) }));
  defineRoute(app, deps, 'rotateWebhookSecret', async ({ actor, params, body }) => ({
    data: await webhooks.rotateSecret(actor, params.webhookId, body?.graceSeconds),
  }));
  defineRoute(app, deps, 'testWebhook', async ({ actor, params, body }) => ({ data: await webhooks.test(actor, params.webhookId, body?.type) }));
  defineRoute(app, deps, 'enableWebhook', async ({ actor, params }) => ({ data: await webhooks.enable(actor, params.webhookId) }));
  defineRoute(app, deps, 'listDeliveries', async ({ actor, params, query }) => webhooks.listDeliveries(actor.workspaceId, params.webhookId, query));
  defineRoute(app, deps, 'retryDelivery', async ({ actor, params }) => ({ data: await webhooks.retryDelivery(actor, params.webhookId, params.deliveryId) }));
  defineRoute(app, deps, 'triggerEvent', async ({ actor, body }) => ({ data: await triggerEvent(actor, body) }));
  defineRoute(app, deps, 'reportStreamResult', async ({ actor, body }) => ({
    data: await streamResults.report(actor.workspaceId, actor.credentialId, body),
  }));
  defineRoute(app, deps, 'listStreamResults', async ({ actor, query }) => streamResults.list(actor.workspaceId, query));
}
