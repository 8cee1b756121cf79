import { STANDARD_WEBHOOK_HEADERS, WEBHOOK_HEADERS } from '@hop/shared';
import { signStandardWebhook, signWebhook, standardSigningKey } from '@hop/shared/webhook-signature';
import { randomBase62 } from '../ids.js';

const USER_AGENT = 'Hop-Webhooks/1.0 (+https://hop.dev/docs/webhooks)';

/** 30 s for the endpoint to answer with a 2xx (docs/api.md). */
export const DELIVERY_TIMEOUT_MS = 30_000;

export interface PostResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** Seconds the endpoint asked to wait (Retry-After on a 429 or 503), when it said. */
  retryAfterSeconds?: number | null;
  /** No answer: the connection failed or timed out (not a refusal by the address rules). */
  connectionFailed?: boolean;
}

/** Sends one POST under the address rules, following no redirect; never throws. */
export type SafePost = (url: string, headers: Record<string, string>, body: string, timeoutMs: number) => Promise<PostResult>;

// A secret's Standard Webhooks key, decoded once rather than at every attempt (a dispatcher signs
// with few secrets, many times each).
const keys = new Map<string, Buffer>();
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 1024) keys.clear();
    keys.set(secret, (key = standardSigningKey(secret)));
  }
  return key;
}

/**
 * The signed headers of one attempt (or one event of a tail session): SPEC's `X-Hop-*` and the
 * Standard Webhooks ones, each with a signature per secret (two during a rotation grace).
 */
export function signedHeaders(o: { secrets: string[]; deliveryId: string; eventType: string; rawBody: string; timestamp: number }, extra?: Record<string, string>) {
  return {
    ...extra,
    'content-type': 'application/json',
    [WEBHOOK_HEADERS.signature]: o.secrets.map((s) => signWebhook(s, o.timestamp, o.rawBody)).join(' '),
    [WEBHOOK_HEADERS.timestamp]: String(o.timestamp),
    [WEBHOOK_HEADERS.eventType]: o.eventType,
    [WEBHOOK_HEADERS.deliveryId]: o.deliveryId,
    // The delivery id again, so a receiver on a Standard Webhooks library deduplicates on it too.
    [STANDARD_WEBHOOK_HEADERS.id]: o.deliveryId,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(o.timestamp),
    [STANDARD_WEBHOOK_HEADERS.signature]: o.secrets
      .map((s) => signStandardWebhook(keyOf(s), o.deliveryId, o.timestamp, o.rawBody)).join(' '),
  };
}

/** Builds the signed request of one attempt and sends it. */
export function createWebhookSender(deps: { post: SafePost; now?: () => number }) {
  const now = deps.now ?? Date.now;
  return {
    async send(opts: { url: string; secrets: string[]; deliveryId: string; eventType: string; rawBody: string }): Promise<PostResult & { ok: boolean }> {
      const headers = signedHeaders({ ...opts, timestamp: Math.floor(now() / 1000) }, {
        'user-agent': USER_AGENT,
        'x-request-id': `req_${randomBase62(16)}`,
      });
      const result = await deps.post(opts.url, headers, opts.rawBody, DELIVERY_TIMEOUT_MS);
      const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      return { ...result, ok, error: ok ? null : (result.error ?? `endpoint answered ${result.statusCode}`) };
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
