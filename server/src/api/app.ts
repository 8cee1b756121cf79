import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import { createServer } from 'node:http';
import { requestIdFor } from '../domain/request-id.js';
import { errorHandlerPlugin, sendError } from './plugins/error-handler.js';
import { createMetrics, metricsRoutes, type Metrics } from './plugins/metrics.js';
import { parseJsonBody } from './plugins/json-body.js';
import { securityHeadersHook } from './security-headers.js';
import { openApiPlugin } from './plugins/openapi.js';
import { limitUnmatched } from './plugins/access.js';
import { authRoutes } from './routes/auth-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { serverRoutes } from './routes/server-routes.js';
import { SERVER_VERSION } from '../version.js';
import { workspaceRoutes } from './routes/workspace-routes.js';
import { memberRoutes } from './routes/member-routes.js';
import { apiKeyRoutes } from './routes/api-key-routes.js';
import { linkRoutes } from './routes/link-routes.js';
import { analyticsRoutes } from './routes/analytics-routes.js';
import { systemRoutes } from './routes/system-routes.js';
import { redirectRoutes } from '../redirector/redirect-routes.js';
import { domainRoutes } from './routes/domain-routes.js';
import { tagRoutes } from './routes/tag-routes.js';
import { qrRoutes } from './routes/qr-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';
import { eventStreamRoutes } from './routes/event-stream-routes.js';
import { integrationRoutes } from './routes/integration-routes.js';
import { oauthRoutes } from './routes/oauth-routes.js';
import { ciTrustRoutes } from './routes/ci-trust-routes.js';
import { dashboardStatic } from './dashboard-static.js';

export const BODY_LIMIT = 1024 * 1024;

/** Builds the HTTP application (API, docs and redirector) without listening: main.ts listens. */
export async function buildApp(
  config: Config,
  services: Services,
  opts: { version?: string; logger?: boolean; metrics?: Metrics; logStream?: { write(line: string): void } } = {},
): Promise<FastifyInstance> {
  const fast = config.disabled.has('redirector') ? null : services.fastRedirect;
  const app = Fastify({
    // Node's server, as Fastify would make it, with the redirector's hot path in front: a plain
    // visit of a cached link is answered there; anything it declines goes to Fastify untouched.
    serverFactory: (handler, fastifyOptions) => {
      const options = fastifyOptions as { http?: object; keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number };
      const server = createServer(options.http ?? {}, (req, res) => {
        let served = false;
        try {
          served = fast?.handle(req, res) ?? false;
        } catch (err) {
          app.log.error({ err }, 'fast redirect failed; serving through the router');
        }
        if (!served) handler(req, res);
      });
      server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
      if (options.requestTimeout) server.requestTimeout = options.requestTimeout;
      if (options.connectionTimeout) server.setTimeout(options.connectionTimeout);
      return server;
    },
    logger: opts.logger === false ? false : {
      level: config.logLevel,
      // Request logs name the route, never the visitor: no IP, no headers, no query (tokens ride there).
      serializers: {
        req: (req: { method: string; url: string; id: string }) => ({ method: req.method, path: req.url.split('?')[0], id: req.id }),
      },
      ...(opts.logStream ? { stream: opts.logStream } : {}),
    },
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy ? config.trustProxy.split(',').map((s) => s.trim()) : false,
    // Accept a caller's request id when it looks like one, so traces join up; else make one.
    genReqId: (req) => requestIdFor(req.headers['x-request-id']),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
    // Failures before routing (a path parameter over 200 characters, broken %-encoding) leave in
    // the contract's shape too.
    frameworkErrors: (err, req, reply) => {
      const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path segment is longer than 200 characters' : 'the path is not a valid URL';
      reply.header('x-request-id', req.id);
      return sendError(reply, 'VALIDATION_ERROR', message, { issues: [{ path: 'path', message }] });
    },
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // Every HTML page, whoever renders it, leaves with the security headers (CSP, framing, sniffing).
  app.addHook('onSend', securityHeadersHook);
  // Unknown API paths count against the credential they present, like every API request.
  if (!config.disabled.has('api')) app.addHook('onRequest', async (req, reply) => limitUnmatched(services, req, reply));
  // One-segment paths the application routes itself stay away from the fast path.
  app.addHook('onRoute', (route) => {
    if (/^\/[^/:*]*$/.test(route.url)) fast?.reservePath(route.url);
  });
  app.addHook('preClose', async () => fast?.close());

  await app.register(errorHandlerPlugin);
  // Registered on the root instance so its onResponse hook sees every route, redirects included.
  await metricsRoutes(app, { metrics: opts.metrics ?? createMetrics(services), token: config.metricsToken, services });
  await app.register(openApiPlugin, { baseUrl: config.baseUrl, version: opts.version ?? SERVER_VERSION });
  const deps = { services, adminToken: config.adminToken };
  // A fleet may split the parts: HOP_DISABLE=api leaves a redirector, =redirector an API server.
  if (!config.disabled.has('api')) await app.register(async (scope) => {
    await serverRoutes(scope, deps);
    await authRoutes(scope, deps);
    await sessionRoutes(scope, deps);
    await workspaceRoutes(scope, deps);
    await memberRoutes(scope, deps);
    await apiKeyRoutes(scope, deps);
    await ciTrustRoutes(scope, deps);
    await linkRoutes(scope, deps);
    await domainRoutes(scope, deps);
    await tagRoutes(scope, deps);
    await analyticsRoutes(scope, deps);
    await qrRoutes(scope, deps);
    await webhookRoutes(scope, deps);
    await eventStreamRoutes(scope, deps);
    await integrationRoutes(scope, deps);
    // Its own scope: form bodies and cookies are parsed there only.
    await scope.register(async (oauthScope) => oauthRoutes(oauthScope, { ...deps, baseUrl: config.baseUrl, dashboardUrl: config.dashboardUrl }));
  });
  await app.register(async (scope) => systemRoutes(scope, deps));
  // The dashboard, when HOP_DASHBOARD_URL names a path of this server (default {base_url}/app).
  const dashboardPath = new URL(config.dashboardUrl).pathname;
  if (!config.disabled.has('api') && dashboardPath !== '/') await app.register(async (scope) => dashboardStatic(scope, { mountPath: dashboardPath }));
  if (!config.disabled.has('redirector')) await app.register(redirectRoutes, { redirector: services.redirector, hostDomains: services.hostDomains, qrTargets: services.qrTargets });
  return app;
}
