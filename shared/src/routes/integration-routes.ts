import { z } from 'zod';
import { LinkSchema } from '../links.js';
import { IntegrationCreateLinkBodySchema, IntegrationMeSchema, IntegrationPollQuerySchema, IntegrationSubscribeBodySchema, IntegrationWebhookParamsSchema, IntegrationWebhookSchema } from '../integration.js';
import { route } from './route-def.js';

/** The integration surface for automation platforms. */
export const integrationRoutes = {
  // Integration surface for automation platforms: bare bodies, the credential's workspace.
  integrationSubscribe: route({
    method: 'POST', path: '/api/v1/webhooks', summary: 'REST hook: subscribe', tag: 'integration', auth: 'credential', workspace: 'credential',
    scope: 'webhooks:manage', role: 'admin', feature: 'webhooks', status: 201, body: IntegrationSubscribeBodySchema, response: IntegrationWebhookSchema, bare: true,
  }),
  integrationUnsubscribe: route({
    method: 'DELETE', path: '/api/v1/webhooks/:webhookId', summary: 'REST hook: unsubscribe', tag: 'integration',
    auth: 'credential', workspace: 'credential', scope: 'webhooks:manage', role: 'admin', status: 200, params: IntegrationWebhookParamsSchema,
    response: IntegrationWebhookSchema, bare: true,
  }),
  integrationCreateLink: route({
    method: 'POST', path: '/api/v1/links', summary: 'Create a link', tag: 'integration', auth: 'credential', workspace: 'credential',
    scope: 'links:write', role: 'member', status: 201, body: IntegrationCreateLinkBodySchema, response: LinkSchema, bare: true, idempotent: true,
  }),
  integrationPollLinks: route({
    method: 'GET', path: '/api/v1/links', summary: 'Polling trigger: newest links first', tag: 'integration',
    auth: 'credential', workspace: 'credential', scope: 'links:read', role: 'viewer', status: 200, query: IntegrationPollQuerySchema, response: z.array(LinkSchema), bare: true,
  }),
  integrationMe: route({
    method: 'GET', path: '/api/v1/me', summary: 'Connection test', tag: 'integration', auth: 'credential', workspace: 'credential', role: 'viewer', status: 200,
    response: IntegrationMeSchema, bare: true,
  }),
};
