import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { routes, type RouteName, type Routes, type WorkspaceSource } from '@hop/shared';
import type { z } from 'zod';
import type { Actor } from '../domain/auth/actor.js';
import type { Principal } from '../domain/auth/credentials.js';
import type { Services } from '../services.js';
import { assertDeclaresAccess, enforceAccess } from './plugins/access.js';
import { HopError, invalid, validationError } from '../domain/errors.js';
import { rejectNul } from '../domain/nul-bytes.js';
import { errorResponses } from './error-responses.js';
import { describeRoute } from './route-description.js';

type Out<N extends RouteName> = Routes[N] extends { bare: true }
  ? { data: z.output<Routes[N]['response']> }
  : Omit<z.output<Routes[N]['response']>, 'success'>;
type In<N extends RouteName, K extends 'params' | 'query' | 'body'> = Routes[N] extends { [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;

/**
 * Who calls, as the route's declaration resolved it: in a workspace (the route's `workspace`
 * source), the actor with its role there; on the account (`none`), the credential; else nothing.
 */
type ActorOf<N extends RouteName> = Routes[N] extends { workspace: 'none' }
  ? Principal
  : Routes[N] extends { workspace: WorkspaceSource }
    ? Actor
    : undefined;

export interface RouteContext<N extends RouteName> {
  params: In<N, 'params'>;
  query: In<N, 'query'>;
  body: In<N, 'body'>;
  actor: ActorOf<N>;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface ApiDeps {
  services: Services;
  adminToken?: string;
}

/**
 * Path parameters against their schema, reported as the validator would (`params.<name>`): run by
 * the access hook before anything is looked up by them, so neither a NUL nor a malformed id
 * reaches the database.
 */
export function checkPathParams(schema: z.ZodType | undefined, params: unknown) {
  rejectNul(params, ['params']);
  if (!schema) return;
  const parsed = schema.safeParse(params);
  if (parsed.success) return;
  const issues = parsed.error.issues.map((i) => ({ path: ['params', ...i.path.map(String)].join('.'), message: i.message }));
  throw invalid(issues);
}

/**
 * Registers one route of the shared table: its schemas (validation, serialisation, OpenAPI), its
 * access rules, idempotency where declared, and the envelope. The handler returns `{data}` (and
 * `pagination` for lists) and does nothing else but call a service.
 */
export function defineRoute<N extends RouteName>(
  app: FastifyInstance,
  deps: ApiDeps,
  name: N,
  handler: (ctx: RouteContext<N>) => Promise<Out<N>>,
) {
  const def = routes[name];
  assertDeclaresAccess(name, def);
  const security: Record<string, string[]>[] = def.auth === 'public' ? [] : def.auth === 'admin' ? [{ adminToken: [] }] : [{ apiKey: [] }, { bearer: [] }];
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.path,
    schema: {
      operationId: name,
      summary: def.summary,
      description: describeRoute(def),
      tags: [def.tag],
      security,
      ...('params' in def ? { params: def.params } : {}),
      ...('query' in def ? { querystring: def.query } : {}),
      ...('body' in def ? { body: def.body } : {}),
      response: { [def.status]: def.response, ...errorResponses(name) },
    },
    config: { routeName: name },
    onRequest: async (req, reply) => {
      // Access and rate limits, as the route declares them: plugins/access.ts. The path parameters
      // are checked once the caller is known and before anything is looked up by them, so a
      // malformed id is 400 VALIDATION_ERROR (docs/api.md, Wire conventions), never a 404.
      const params = 'params' in def && def.params ? def.params : undefined;
      await enforceAccess(deps.services, deps.adminToken, def, req, reply, () => checkPathParams(params, req.params));
    },
    // PostgreSQL text cannot hold U+0000: a NUL in any string (a title, a tag, a search) is bad
    // input, refused naming where it was, before it can reach the database as a 500.
    // A bulk body (an array) is checked element by element by its service, so that one bad
    // element fails alone (docs/api.md, Wire conventions).
    preValidation: async (req) => {
      if (!Array.isArray(req.body)) rejectNul(req.body, []);
      rejectNul(req.query, ['query']);
    },
    handler: async (req, reply) => {
      const ctx = {
        params: req.params, query: req.query, body: req.body,
        actor: req.actor ?? req.principal, req, reply,
      } as unknown as RouteContext<N>;
      const bare = 'bare' in def && def.bare;
      const run = async () => {
        const out = await handler(ctx);
        return { statusCode: def.status as number, body: bare ? (out as { data: unknown }).data : { success: true, ...out } };
      };
      const key = req.headers['idempotency-key'];
      if ('idempotent' in def && def.idempotent && typeof key === 'string' && key.length > 0) {
        if (key.length > 255) throw validationError('Idempotency-Key', 'at most 255 characters');
        const scope = `${req.principal?.credentialId}:${name}:${JSON.stringify(req.params)}`;
        const result = await deps.services.idempotency.run(scope, key, req.body, run);
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return reply.code(result.statusCode).send(result.body as never);
      }
      const result = await run();
      return reply.code(result.statusCode).send(result.body as never);
    },
  });
}
