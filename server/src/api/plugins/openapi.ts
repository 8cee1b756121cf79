import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { useAppCsp } from '../security-headers.js';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { eventWebhooks } from './openapi-webhooks.js';
import { oauthPaths } from './openapi-oauth.js';

/** OpenAPI 3.1 generated from the shared zod contracts, at /v1/openapi.json, browsable at /docs. */
export const openApiPlugin = fp(
  async (app, opts: { baseUrl: string; version: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Hop API',
          version: opts.version,
          description: 'Short links, workspaces, API keys and more. Every success body is `{success: true, data}`; every error `{success: false, error}`.',
        },
        servers: [{ url: opts.baseUrl }],
        components: {
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            adminToken: { type: 'apiKey', in: 'header', name: 'X-Admin-Token' },
          },
        },
      },
      transform: jsonSchemaTransform,
      // The event payloads (components already, as registered schemas) become the document's
      // webhooks; the OAuth endpoints, outside the route table, are described on their own.
      transformObject: (doc) => {
        const out = jsonSchemaTransformObject(doc);
        return { ...out, paths: { ...out.paths, ...(oauthPaths() as typeof out.paths) }, webhooks: eventWebhooks() };
      },
    });
    // The reference is an application (scripts from this origin): it gets the app policy.
    await app.register(async (docs) => {
      docs.addHook('onRequest', useAppCsp);
      await docs.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
    });
    app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'hop-openapi', dependencies: ['hop-error-handler'] },
);
