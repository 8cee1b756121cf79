import type { FastifyReply, FastifyRequest } from 'fastify';
import { HopError } from '../../domain/errors.js';
import type { BucketStatus, Decision } from '../../domain/rate-limits/rate-limiter.js';
import type { Services } from '../../services.js';

const seconds = (ms: number) => Math.ceil(ms / 1000);

/** X-RateLimit-* for the tighter window (docs/api.md, Limits); a refusal becomes 429 (Retry-After: see error-handler.ts). */
function apply(decision: Decision, reply: FastifyReply, now: number) {
  const s: BucketStatus | null = decision.status;
  if (!s) return;
  reply.header('x-ratelimit-limit', String(s.limit));
  reply.header('x-ratelimit-remaining', String(s.remaining));
  reply.header('x-ratelimit-reset', String(seconds(s.resetAt)));
  if (decision.allowed) return;
  const retryAfter = Math.max(1, seconds(s.resetAt - now));
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

/**
 * Counts the request against the caller's buckets: its credential and the workspace it acts in
 * (at that workspace's plan, however the route named it), or its address without a credential.
 */
async function count(services: Services, req: FastifyRequest): Promise<Decision> {
  const p = req.principal;
  if (!p) return services.rateLimits.consumeAnonymous(req.ip);
  const a = req.actor;
  return services.rateLimits.consumeCaller({
    credentialId: p.credentialId,
    userId: p.userId,
    boundWorkspaceId: p.workspaceId,
    workspaceId: a?.workspaceId,
    plan: a?.plan,
  });
}

const counted = (services: Services) => services.rateLimits.settings.enabled;

/**
 * Runs in every table route's onRequest once access is decided (plugins/access.ts), so it knows
 * the credential, the workspace and its plan. The redirector is not a table route and is never counted.
 */
export async function limitRequest(services: Services, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (counted(services)) apply(await count(services, req), reply, Date.now());
}

/**
 * A refused request still counts: a bad credential per address (so guessing keys is slowed like
 * guessing passwords), a known one per credential and, when it got that far, per workspace.
 * Rethrows the refusal, unless the caller is over its limit, which answers 429 instead.
 */
export async function limitRefused(services: Services, req: FastifyRequest, reply: FastifyReply, err: unknown): Promise<never> {
  if (counted(services)) apply(await count(services, req), reply, Date.now());
  throw err;
}

/** Operator requests, per address, before the token is compared: guesses are limited like bad keys. */
export async function limitAdmin(services: Services, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (counted(services)) apply(await services.rateLimits.consumeAdminAttempt(req.ip), reply, Date.now());
}

/**
 * `GET /metrics`, per address, before its token is compared: a token is guessed no faster than a
 * key. The count waits for the counter store at most `waitMs`, so that a stalled database never holds /metrics up.
 */
export async function limitMetrics(services: Services, req: FastifyRequest, reply: FastifyReply, waitMs: number): Promise<void> {
  if (counted(services)) apply(await services.rateLimits.consumeMetricsAttempt(req.ip, waitMs), reply, Date.now());
}
