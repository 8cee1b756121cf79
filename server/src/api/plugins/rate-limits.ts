import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDef } from '@hop/shared';
import { HopError } from '../../domain/errors.js';
import type { BucketStatus, Decision } from '../../domain/rate-limits/rate-limiter.js';
import type { Services } from '../../services.js';

const seconds = (ms: number) => Math.ceil(ms / 1000);

/** X-RateLimit-* for the tighter window (CONTRACT 3); a refusal becomes 429 with Retry-After. */
function apply(decision: Decision, reply: FastifyReply, now: number) {
  const s: BucketStatus | null = decision.status;
  if (!s) return;
  reply.header('x-ratelimit-limit', String(s.limit));
  reply.header('x-ratelimit-remaining', String(s.remaining));
  reply.header('x-ratelimit-reset', String(seconds(s.resetAt)));
  if (decision.allowed) return;
  const retryAfter = Math.max(1, seconds(s.resetAt - now));
  reply.header('retry-after', String(retryAfter));
  const per = s.window === '1m' ? 'minute' : 'hour';
  const resetAt = new Date(s.resetAt).toISOString();
  // Says when to come back, and who can lift the limit (a self-hosted team is its own operator).
  throw new HopError('RATE_LIMIT_EXCEEDED', `rate limit of ${s.limit} requests per ${per} reached; the window resets at ${resetAt} ` +
    `(retry in ${retryAfter} s). The server's operator can raise this limit (the workspace's plan, or HOP_DEFAULT_PLAN for new workspaces)`, {
    limit: s.limit,
    window: s.window,
    resetAt,
  });
}

/** Counts the request against the caller's buckets: its credential and workspace, or its address. */
async function count(services: Services, req: FastifyRequest, inWorkspace: boolean): Promise<Decision> {
  const p = req.principal;
  if (!p) return services.rateLimits.consumeAnonymous(req.ip);
  const m = inWorkspace ? req.membership : undefined;
  return services.rateLimits.consumeCaller({
    credentialId: p.credentialId,
    userId: p.userId,
    workspaceId: m?.workspaceId ?? p.workspaceId,
    plan: m?.plan,
  });
}

/**
 * Runs in every table route's onRequest, right after `authorize` (plugins/authentication.ts), so
 * it knows the credential, the workspace and its plan. The operator's admin routes are not
 * counted; the redirector is not a table route and is never counted.
 */
export async function limitRequest(services: Services, def: RouteDef, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (def.auth === 'admin' || !services.rateLimits.settings.enabled) return;
  apply(await count(services, req, true), reply, Date.now());
}

/**
 * A request `authorize` refused still counts: a bad credential per address (so guessing keys is
 * slowed like guessing passwords), a known one per credential. Rethrows the refusal, unless the
 * caller is over its limit, which answers 429 instead.
 */
export async function limitRefused(services: Services, def: RouteDef, req: FastifyRequest, reply: FastifyReply, err: unknown): Promise<never> {
  if (def.auth !== 'admin' && services.rateLimits.settings.enabled) apply(await count(services, req, false), reply, Date.now());
  throw err;
}
