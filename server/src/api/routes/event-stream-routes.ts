import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EVENT_TYPES, EventStreamQuerySchema, WorkspaceParamsSchema, type RouteDef } from '@hop/shared';
import { checkPathParams, type ApiDeps } from '../define-route.js';
import { errorResponsesOf } from '../error-responses.js';
import { describeRoute } from '../route-description.js';
import { enforceAccess } from '../plugins/access.js';
import { validationError } from '../../domain/errors.js';

// Access as for webhooks, but no plan gate: anyone may watch their workspace's events (docs/api.md, Events and webhooks).
const ACCESS: RouteDef = {
  method: 'GET', path: '/v1/workspaces/:workspaceId/events/stream', summary: 'Live events (Server-Sent Events)',
  tag: 'webhooks', auth: 'credential', workspace: 'path', scope: 'webhooks:manage', role: 'admin', status: 200, response: z.string(),
};

/** `GET /v1/workspaces/{ws}/events/stream`: the live, signed event stream `hop webhooks tail` reads. */
export async function eventStreamRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { eventStreams } = deps.services;
  app.get<{ Params: { workspaceId: string }; Querystring: { events?: string } }>(ACCESS.path, {
    schema: {
      operationId: 'streamEvents', summary: ACCESS.summary, tags: [ACCESS.tag], security: [{ apiKey: [] }, { bearer: [] }],
      params: WorkspaceParamsSchema, querystring: EventStreamQuerySchema,
      description: describeRoute({ ...ACCESS, description: 'text/event-stream. First a `ready` event with the session secret; then each event with `id` (resume with Last-Event-ID), the signed headers and the raw body; `: ping` every 15 s.' }),
      response: {
        200: { description: 'The stream, open until the client leaves', content: { 'text/event-stream': { schema: z.string() } } },
        ...errorResponsesOf(ACCESS),
      },
    },
    // The same hook as the table's routes: access, then both rate-limit buckets (one per stream opened).
    onRequest: async (req, reply) => enforceAccess(deps.services, deps.adminToken, ACCESS, req, reply,
      () => checkPathParams(WorkspaceParamsSchema, req.params)),
    handler: async (req, reply) => {
      const types = req.query.events?.split(',').map((t) => t.trim()).filter(Boolean) ?? null;
      const unknown = types?.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
      if (unknown) throw validationError('query.events', `unknown event type "${unknown}"`);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': req.id,
      });
      const close = await eventStreams.open({
        workspaceId: req.actor!.workspaceId,
        credentialId: req.actor!.credentialId,
        types,
        lastEventId: typeof req.headers['last-event-id'] === 'string' ? req.headers['last-event-id'] : undefined,
        write: (chunk: string) => {
          if (!res.writableEnded) res.write(chunk);
        },
        // On shutdown the hub ends every stream, so the server can close; clients resume elsewhere.
        end: () => res.end(),
      });
      req.raw.on('close', () => void close());
    },
  });
}
