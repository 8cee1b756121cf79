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

/**
 * Sends one POST under the address rules, following no redirect; never throws. `headers` are
 * name, value, name, value... (undici's flat form).
 */
export type SafePost = (url: string, headers: string[], body: string | Buffer, timeoutMs: number) => Promise<PostResult>;

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
 * The signed headers of one attempt, as undici's flat list (name, value, name, value...): SPEC's
 * `X-Hop-*` and the Standard Webhooks ones, each with a signature per secret (two during a rotation
 * grace). A list, not an object: an object literal with computed names spread over another cost
 * more than both signatures together, at every attempt.
 */
export function signedHeaderList(o: { secrets: string[]; deliveryId: string; eventType: string; rawBody: string | Buffer; timestamp: number }): string[] {
  const ts = String(o.timestamp);
  let hop = '';
  let standard = '';
  for (const s of o.secrets) {
    hop += (hop ? ' ' : '') + signWebhook(s, o.timestamp, o.rawBody);
    standard += (standard ? ' ' : '') + signStandardWebhook(keyOf(s), o.deliveryId, o.timestamp, o.rawBody);
  }
  return [
    'content-type', 'application/json',
    WEBHOOK_HEADERS.signature, hop,
    WEBHOOK_HEADERS.timestamp, ts,
    WEBHOOK_HEADERS.eventType, o.eventType,
    WEBHOOK_HEADERS.deliveryId, o.deliveryId,
    // The delivery id again, so a receiver on a Standard Webhooks library deduplicates on it too.
    STANDARD_WEBHOOK_HEADERS.id, o.deliveryId,
    STANDARD_WEBHOOK_HEADERS.timestamp, ts,
    STANDARD_WEBHOOK_HEADERS.signature, standard,
  ];
}

/** The same headers as an object (one event of a tail session, shown to the CLI). */
export function signedHeaders(o: { secrets: string[]; deliveryId: string; eventType: string; rawBody: string; timestamp: number }): Record<string, string> {
  const list = signedHeaderList(o);
  const headers: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) headers[list[i]] = list[i + 1];
  return headers;
}

/** Builds the signed request of one attempt and sends it. */
export function createWebhookSender(deps: { post: SafePost; now?: () => number }) {
  const now = deps.now ?? Date.now;
  return {
    async send(opts: { url: string; secrets: string[]; deliveryId: string; eventType: string; rawBody: string }): Promise<PostResult & { ok: boolean }> {
      // The body encoded once: both signatures and the request use the same bytes.
      const body = Buffer.from(opts.rawBody);
      const headers = signedHeaderList({ secrets: opts.secrets, deliveryId: opts.deliveryId, eventType: opts.eventType, rawBody: body, timestamp: Math.floor(now() / 1000) });
      headers.push('user-agent', USER_AGENT, 'x-request-id', `req_${randomBase62(16)}`);
      const result = await deps.post(opts.url, headers, body, DELIVERY_TIMEOUT_MS);
      const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      return { ...result, ok, error: ok ? null : (result.error ?? `endpoint answered ${result.statusCode}`) };
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
