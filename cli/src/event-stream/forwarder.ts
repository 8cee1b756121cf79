import { request } from 'undici';
import type { StreamEvent } from './sse-client.js';

/** What the local receiver made of a forwarded event. */
export interface ForwardResult {
  url: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** As long as the dispatcher gives a real endpoint. */
const TIMEOUT_MS = 30_000;

/**
 * POSTs the event's raw body to a local URL with the headers a real delivery carries (signature,
 * timestamp, event type, delivery id), byte for byte, so the receiver's own verification runs
 * exactly as in production. Redirects are not followed, as the dispatcher does not follow them.
 */
export async function forwardEvent(url: string, event: StreamEvent, userAgent: string, timeoutMs = TIMEOUT_MS): Promise<ForwardResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { ...event.headers, 'user-agent': userAgent },
      body: event.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.dump().catch(() => {});
    return { url, statusCode: res.statusCode, durationMs: elapsed(), error: res.statusCode >= 200 && res.statusCode < 300 ? null : `HTTP ${res.statusCode}` };
  } catch (err) {
    const e = err as Error & { code?: string; cause?: { code?: string } };
    const code = e.code ?? e.cause?.code;
    const message = e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' ? `no answer within ${timeoutMs / 1000} s` : code && code !== 'UND_ERR' ? `${code}: ${e.message}` : e.message;
    return { url, statusCode: null, durationMs: elapsed(), error: message };
  }
}
