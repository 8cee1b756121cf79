// Node-only (node:crypto): imported as `@hop/shared/webhook-signature`, never from the package's
// main entry, so the dashboard's bundle does not need it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_AGE_SECONDS, MAX_FUTURE_SECONDS, STANDARD_WEBHOOK_HEADERS, WEBHOOK_HEADERS } from './webhook-headers.js';

export { MAX_AGE_SECONDS, MAX_FUTURE_SECONDS, STANDARD_WEBHOOK_HEADERS, WEBHOOK_HEADERS };

/** SPEC's signature: `v1=` + lower-case hex HMAC-SHA256 of `{timestamp}.{rawBody}`, keyed with the secret's text. */
export function signWebhook(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return 'v1=' + createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

const WHSEC = /^whsec_([A-Za-z0-9+/_-]+={0,2})$/;

/**
 * The key of the Standard Webhooks signature. A `whsec_` secret is keyed with the bytes its base64
 * encodes: the standard alphabet (every secret made now) or the URL-safe one (secrets made before
 * the standard headers; the same 32 random bytes, see docs/webhooks.md for giving them to the
 * official libraries). Any other secret (one an integration chose) is keyed with its UTF-8 bytes,
 * which the libraries call a "raw" secret.
 */
export function standardSigningKey(secret: string): Buffer {
  const m = WHSEC.exec(secret);
  return m ? Buffer.from(m[1].replace(/-/g, '+').replace(/_/g, '/'), 'base64') : Buffer.from(secret, 'utf8');
}

/** Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{rawBody}`. */
export function signStandardWebhook(key: Buffer, id: string, timestamp: number, rawBody: string | Buffer): string {
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest('base64');
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
