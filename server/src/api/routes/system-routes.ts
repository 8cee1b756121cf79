import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../define-route.js';
import { sendError } from '../plugins/error-handler.js';

/** Liveness and readiness, outside /v1 and outside the OpenAPI document. */
export async function systemRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { db } = deps.services;
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (req, reply) => {
    try {
      await db.query('select 1');
      return { status: 'ready', database: db.kind };
    } catch (err) {
      req.log.warn({ err }, 'database not reachable');
      return sendError(reply, 'SERVICE_UNAVAILABLE', 'the database is not reachable');
    }
  });
}
