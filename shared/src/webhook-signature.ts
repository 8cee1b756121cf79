import { createHmac, timingSafeEqual } from 'node:crypto';

/** The headers Hop sends with every delivery (docs/api.md, Events and webhooks). */
export const WEBHOOK_HEADERS = {
  signature: 'x-hop-webhook-signature',
  timestamp: 'x-hop-webhook-timestamp',
  eventType: 'x-hop-event-type',
  deliveryId: 'x-hop-webhook-id',
} as const;

/** Deliveries older than 30 s, or more than 5 s in the future, are refused (docs/api.md). */
export const MAX_AGE_SECONDS = 30;
export const MAX_FUTURE_SECONDS = 5;

/** `v1=` + lower-case hex HMAC-SHA256 of `{timestamp}.{rawBody}`. */
export function signWebhook(secret: string, timestamp: number, rawBody: string): string {
  return 'v1=' + createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

export type VerifyResult =
  | { ok: true }
  | { ok: false; reason: 'missing_headers' | 'bad_timestamp' | 'stale_timestamp' | 'future_timestamp' | 'signature_mismatch' };

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const h = headers as Record<string, string | string[] | undefined>;
  const v = h[name] ?? Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Checks a delivery as a receiver should: the timestamp within the window, then every `v1=`
 * signature (two during a secret rotation) compared in constant time against the raw body.
 */
export function verifyWebhook(secret: string, headers: Headers, rawBody: string, nowSeconds = Math.floor(Date.now() / 1000)): VerifyResult {
  const sig = header(headers, WEBHOOK_HEADERS.signature);
  const ts = header(headers, WEBHOOK_HEADERS.timestamp);
  if (!sig || !ts) return { ok: false, reason: 'missing_headers' };
  if (!/^\d{1,12}$/.test(ts)) return { ok: false, reason: 'bad_timestamp' };
  const timestamp = Number(ts);
  if (nowSeconds - timestamp > MAX_AGE_SECONDS) return { ok: false, reason: 'stale_timestamp' };
  if (timestamp - nowSeconds > MAX_FUTURE_SECONDS) return { ok: false, reason: 'future_timestamp' };
  const expected = Buffer.from(signWebhook(secret, timestamp, rawBody));
  const match = sig.split(/\s+/).some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return match ? { ok: true } : { ok: false, reason: 'signature_mismatch' };
}
