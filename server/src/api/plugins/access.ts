import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDef, WorkspaceSource } from '@hop/shared';
import { actorOf, type Actor } from '../../domain/auth/actor.js';
import { roleAtLeast } from '@hop/shared';
import type { Principal } from '../../domain/auth/credentials.js';
import { HopError, notFound } from '../../domain/errors.js';
import type { Services } from '../../services.js';
import { authenticate, requireOperator, requireScope, requireUserCredential } from './authentication.js';
import { limitAdmin, limitRefused, limitRequest } from './rate-limits.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The checked credential, on every route but public and admin ones. */
    principal?: Principal;
    /** The caller in the route's workspace, on routes that act in one. */
    actor?: Actor;
  }
}

type Params = Record<string, string | undefined>;

/** Where each declared source finds the workspace id, and what a miss is called in the 404. */
const SOURCES: Record<Exclude<WorkspaceSource, 'none'>, { resource: string; find: (s: Services, p: Params, who: Principal) => Promise<string | null | undefined> }> = {
  path: { resource: 'workspace', find: async (_s, p) => p.workspaceId },
  link: { resource: 'link', find: (s, p) => s.links.workspaceOf(p.linkId!) },
  qr: { resource: 'qr code', find: (s, p) => s.qr.workspaceOf(p.qrId!) },
  credential: {
    resource: 'workspace',
    find: async (_s, _p, who) => {
      if (who.workspaceId) return who.workspaceId;
      throw new HopError('FORBIDDEN', 'this needs an API key or OAuth token bound to a workspace', { requiredCredential: 'apiKey' });
    },
  },
};

/**
 * The caller's standing in the workspace the route acts in. Unknown, foreign, or outside the one
 * workspace a credential is bound to: 404 named after what the route named, never 403 (docs/api.md, Wire conventions).
 */
async function resolveActor(services: Services, source: Exclude<WorkspaceSource, 'none'>, req: FastifyRequest, who: Principal): Promise<Actor> {
  const { resource, find } = SOURCES[source];
  const workspaceId = await find(services, req.params as Params, who);
  const inReach = workspaceId && (!who.workspaceId || who.workspaceId === workspaceId);
  const membership = inReach ? await services.workspaces.membership(who.userId, workspaceId) : null;
  if (!membership) throw notFound(resource);
  return actorOf(who, membership);
}

/**
 * Every access rule a route declares in shared/routes.ts, in one place: the credential, its
 * scope, the workspace the route acts in, the caller's membership and role there, and the plan
 * feature the workspace must have. Sets `req.principal` and `req.actor` as far as it got, so that
 * a refusal counts where it belongs.
 */
async function checkAccess(services: Services, def: RouteDef, req: FastifyRequest, checkParams: () => void) {
  const principal = await authenticate(services, req);
  req.principal = principal;
  checkParams();
  if (def.auth === 'session') requireUserCredential(principal);
  requireScope(principal, def.scope);
  if (!def.workspace || def.workspace === 'none') return;
  const actor = await resolveActor(services, def.workspace, req, principal);
  req.actor = actor;
  if (def.role && !roleAtLeast(actor.role, def.role)) {
    throw new HopError('FORBIDDEN', `this needs the ${def.role} role or higher; you are ${actor.role}`, { requiredRole: def.role, role: actor.role });
  }
  if (def.feature) services.features(def.feature, actor);
}

/**
 * The hook every route of the table (and the event stream) runs before its body is read: access,
 * then both rate-limit buckets of the credential and the workspace it acts in (plugins/rate-limits.ts).
 * A refused request counts too, and its answer carries the X-RateLimit-* headers.
 */
export async function enforceAccess(
  services: Services, adminToken: string | undefined, def: RouteDef, req: FastifyRequest, reply: FastifyReply,
  checkParams: () => void = () => {},
) {
  if (def.auth === 'public') {
    await limitRequest(services, req, reply);
    return checkParams();
  }
  if (def.auth === 'admin') {
    // Counted before the token is compared, so a guess over the limit learns nothing.
    await limitAdmin(services, req, reply);
    const operator = await requireOperator(services, adminToken, req);
    if (operator) req.principal = operator;
    return checkParams();
  }
  await checkAccess(services, def, req, checkParams).catch((err) => limitRefused(services, req, reply, err));
  await limitRequest(services, req, reply);
}

/** Refuses at start-up a table route that does not say where its workspace comes from. */
export function assertDeclaresAccess(name: string, def: RouteDef) {
  if (def.auth !== 'credential' && def.auth !== 'session') return;
  const problem = !def.workspace
    ? 'declares no workspace source'
    : def.workspace === 'path' && !def.path.includes(':workspaceId')
      ? "takes its workspace from a path without :workspaceId"
      : def.workspace !== 'none' && !def.role
        ? 'acts in a workspace but declares no role'
        : null;
  if (problem) throw new Error(`route ${name} ${problem} (shared/src/routes/)`);
}

const API_PATH = /^\/(api\/)?v1\//;

/**
 * A path no route serves, under /v1 or /api/v1, with a credential: counted like any request of
 * that credential (a bad one per address), so its 404 carries the X-RateLimit-* headers too.
 */
export async function limitUnmatched(services: Services, req: FastifyRequest, reply: FastifyReply) {
  if (!req.is404 || !API_PATH.test(req.url) || !(req.headers['x-api-key'] || req.headers.authorization)) return;
  req.principal = await authenticate(services, req).catch(() => undefined);
  await limitRequest(services, req, reply);
}
