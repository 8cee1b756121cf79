import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { useAppCsp } from '../security-headers.js';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { eventWebhooks } from './openapi-webhooks.js';
import { oauthPaths } from './openapi-oauth.js';
import { ROUTE_TAGS } from '@hop/shared';

/**
 * Drops the components nothing refers to: the zod provider registers an input and an output
 * variant of every named schema, and most are used one way only.
 */
function withoutUnusedSchemas<D>(document: D): D {
  const doc = document as { components?: { schemas?: Record<string, unknown> } };
  const schemas = doc.components?.schemas ?? {};
  const refs = (value: unknown) => [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  const used = new Set(refs({ ...doc, components: { ...doc.components, schemas: {} } }));
  for (const queue = [...used]; queue.length > 0;) {
    for (const name of refs(schemas[queue.pop()!] ?? {})) if (!used.has(name)) queue.push(name), used.add(name);
  }
  return { ...doc, components: { ...doc.components, schemas: Object.fromEntries(Object.entries(schemas).filter(([n]) => used.has(n))) } } as D;
}

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
          license: { name: 'MIT', identifier: 'MIT' },
        },
        tags: Object.entries(ROUTE_TAGS).map(([name, description]) => ({ name, description })),
        servers: [{ url: opts.baseUrl }],
        components: {
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            adminToken: { type: 'apiKey', in: 'header', name: 'X-Admin-Token' },
            oauthClientBasic: { type: 'http', scheme: 'basic', description: 'An OAuth client\'s id and secret (RFC 6749 2.3.1); public clients send `client_id` in the body instead' },
          },
        },
      },
      transform: jsonSchemaTransform,
      // The event payloads (components already, as registered schemas) become the document's
      // webhooks; the OAuth endpoints, outside the route table, are described on their own.
      transformObject: (doc) => {
        const out = jsonSchemaTransformObject(doc);
        return withoutUnusedSchemas({ ...out, paths: { ...out.paths, ...(oauthPaths() as typeof out.paths) }, webhooks: eventWebhooks() });
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
