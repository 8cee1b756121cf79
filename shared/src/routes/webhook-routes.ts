import { envelope, listEnvelope, ListQuerySchema } from '../envelope.js';
import { WorkspaceParamsSchema } from '../workspaces.js';
import { CreatedWebhookSchema, CreateWebhookBodySchema, DeliveryParamsSchema, DeliverySchema, ListDeliveriesQuerySchema, RotatedSecretSchema, RotateSecretBodySchema, StreamResultBodySchema, StreamResultSchema, TestWebhookBodySchema, TriggerEventBodySchema, TriggerEventResultSchema, UpdateWebhookBodySchema, WebhookParamsSchema, WebhookSchema, WebhookTestResultSchema } from '../webhooks.js';
import { route } from './route-def.js';

/** Webhooks, deliveries and the event stream's results. */
export const webhookRoutes = {
  // Webhooks (Pro plan and up)
  listWebhooks: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/webhooks', summary: 'Webhooks of a workspace', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, params: WorkspaceParamsSchema,
    query: ListQuerySchema, response: listEnvelope(WebhookSchema),
  }),
  createWebhook: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/webhooks', summary: 'Create a webhook (secret shown once)',
    tag: 'webhooks', auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', feature: 'webhooks', status: 201, params: WorkspaceParamsSchema,
    body: CreateWebhookBodySchema, response: envelope(CreatedWebhookSchema), idempotent: true,
  }),
  getWebhook: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId', summary: 'One webhook', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, params: WebhookParamsSchema,
    response: envelope(WebhookSchema),
  }),
  updateWebhook: route({
    method: 'PATCH', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId', summary: 'Change a webhook', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, params: WebhookParamsSchema,
    body: UpdateWebhookBodySchema, response: envelope(WebhookSchema),
  }),
  deleteWebhook: route({
    method: 'DELETE', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId', summary: 'Delete a webhook', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, params: WebhookParamsSchema,
    response: envelope(WebhookSchema),
  }),
  rotateWebhookSecret: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId/rotate-secret',
    summary: 'Issue a new secret, optionally signing with the old one too for a grace period', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', feature: 'webhooks', status: 200, params: WebhookParamsSchema,
    body: RotateSecretBodySchema, response: envelope(RotatedSecretSchema),
  }),
  testWebhook: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId/test',
    summary: 'Send a sample event now and report the answer', tag: 'webhooks', auth: 'credential', workspace: 'path',
    scope: 'webhooks:manage', role: 'admin', feature: 'webhooks', status: 200, params: WebhookParamsSchema, body: TestWebhookBodySchema,
    response: envelope(WebhookTestResultSchema),
  }),
  enableWebhook: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId/enable', summary: 'Re-enable a disabled webhook',
    tag: 'webhooks', auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', feature: 'webhooks', status: 200,
    params: WebhookParamsSchema, response: envelope(WebhookSchema),
  }),
  listDeliveries: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId/deliveries', summary: 'Delivery history',
    tag: 'webhooks', auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200,
    params: WebhookParamsSchema, query: ListDeliveriesQuerySchema, response: listEnvelope(DeliverySchema),
  }),
  retryDelivery: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/webhooks/:webhookId/deliveries/:deliveryId/retry',
    summary: 'Send a delivery again (same delivery id)', tag: 'webhooks', auth: 'credential', workspace: 'path', scope: 'webhooks:manage',
    role: 'admin', feature: 'webhooks', status: 200, params: DeliveryParamsSchema, response: envelope(DeliverySchema),
  }),

  triggerEvent: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/events/trigger',
    summary: 'Send a sample event ("test": true) to one webhook, or to the live event stream (hop webhooks tail)', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, params: WorkspaceParamsSchema,
    body: TriggerEventBodySchema, response: envelope(TriggerEventResultSchema),
  }),
  reportStreamResult: route({
    method: 'POST', path: '/v1/workspaces/:workspaceId/events/stream/results',
    summary: 'Report what a local receiver answered to a forwarded stream event (hop webhooks tail)', tag: 'webhooks',
    auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 201, params: WorkspaceParamsSchema,
    body: StreamResultBodySchema, response: envelope(StreamResultSchema),
  }),
  listStreamResults: route({
    method: 'GET', path: '/v1/workspaces/:workspaceId/events/stream/results',
    summary: 'Recent local results reported by hop webhooks tail, newest first', tag: 'webhooks', auth: 'credential', workspace: 'path',
    scope: 'webhooks:manage', role: 'admin', status: 200, params: WorkspaceParamsSchema, query: ListQuerySchema,
    response: listEnvelope(StreamResultSchema),
  }),
};
