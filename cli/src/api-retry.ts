import type { RouteName } from '@hop/shared';
// A subpath, not the package's index: the index loads every contract and zod, which a command
// that only reads has no use for at start (test/cli/startup.test.ts).
import { parseRetryAfter } from '@hop/shared/retry-after';
import { HopApiError, paginateWith, ROUTE_PATHS, type HopClient, type RouteInput } from '@hop/shared/client';

/** How `hop` retries (CI pipelines): 429, 5xx and unreachable servers, with exponential backoff. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff; doubled on each retry, with jitter. */
  baseMs: number;
  /** A wait longer than this (a Retry-After of an hour, say) is not worth it: fail instead. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseMs: 500, maxDelayMs: 90_000 };
const NETWORK_RETRIES = 2;
export const NO_RETRY: RetryPolicy = { retries: 0, baseMs: 0, maxDelayMs: 0 };

export const isRetryable = (err: unknown): err is HopApiError =>
  err instanceof HopApiError && (err.statusCode === 429 || err.statusCode >= 500 || err.code === 'NETWORK_ERROR');

function retryAfterMs(err: HopApiError, now: number): number | null {
  const h = err.headers['retry-after'];
  return parseRetryAfter(Array.isArray(h) ? h[0] : h, now);
}

/** How long to wait before retry number `attempt` (1-based), or null when it should not be retried. */
export function retryDelay(err: unknown, attempt: number, policy: RetryPolicy, now = Date.now(), random = Math.random): number | null {
  if (!isRetryable(err) || attempt > policy.retries) return null;
  // An unreachable server is more often a wrong HOP_API_URL than a restart: two quick tries only.
  if (err.code === 'NETWORK_ERROR' && attempt > NETWORK_RETRIES) return null;
  const backoff = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (attempt - 1)) * (0.75 + random() / 2);
  // The server knows when the window resets: never come back earlier than it says.
  const told = retryAfterMs(err, now);
  const wait = told === null ? backoff : Math.max(told, 0) + Math.min(250, backoff);
  return wait > policy.maxDelayMs ? null : Math.round(wait);
}

export interface RetryEvents {
  onRetry?: (info: { route: RouteName; error: HopApiError; attempt: number; delayMs: number }) => void;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The one retry policy of the CLI, around the client every command gets from BaseCommand. Every
 * request that writes carries an `Idempotency-Key`, the same on each retry, so a create the server
 * did but whose answer was lost is not made twice (docs/api.md, Links).
 */
export function withRetry(client: HopClient, policy: RetryPolicy, events: RetryEvents = {}): HopClient {
  const sleep = events.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  async function call<N extends RouteName>(name: N, input: RouteInput<N>) {
    const writes = ROUTE_PATHS[name][0] !== 'GET';
    // node:crypto loads only for a write: a read-only command starts without it.
    const sent = writes && !input.idempotencyKey ? { ...input, idempotencyKey: (await import('node:crypto')).randomUUID() } : input;
    for (let attempt = 1; ; attempt++) {
      try {
        return await client.call(name, sent);
      } catch (err) {
        const delayMs = retryDelay(err, attempt, policy);
        if (delayMs === null) throw err;
        events.onRetry?.({ route: name, error: err as HopApiError, attempt, delayMs });
        await sleep(delayMs);
      }
    }
  }
  return { ...client, call, paginate: paginateWith(call) };
}
