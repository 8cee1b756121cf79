import { request } from 'undici';
import { HopError } from '../errors.js';
import type { PostResult } from '../webhooks/webhook-sender.js';
import { checkUrl } from './safe-fetch.js';
import { pinnedAgent } from './pinned-agent.js';

/**
 * POSTs a webhook delivery under the address rules (CONTRACT 9): the host is resolved at every
 * attempt, every address checked, the connection pinned to the checked one; no redirect is
 * followed (a 3xx is a failure); the answer's body is read and dropped. Never throws.
 */
export function createSafePost(opts: { allowPrivate: boolean; resolve?: (host: string) => Promise<{ address: string; family: number }[]> }) {
  return async function safePost(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let target;
    try {
      target = await checkUrl(url, { allowPrivate: opts.allowPrivate, field: 'url', resolve: opts.resolve });
    } catch (err) {
      return { statusCode: null, durationMs: elapsed(), error: err instanceof HopError ? err.message : String(err) };
    }
    const agent = pinnedAgent(target.address, timeoutMs);
    try {
      const res = await request(target.url, { method: 'POST', headers, body, dispatcher: agent, signal: AbortSignal.timeout(timeoutMs) });
      await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
      return { statusCode: res.statusCode, durationMs: elapsed(), error: null };
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || e.code?.includes('TIMEOUT');
      return { statusCode: null, durationMs: elapsed(), error: timedOut ? `no answer within ${timeoutMs / 1000} s` : (e.code ?? e.message ?? 'request failed') };
    } finally {
      void agent.close().catch(() => {});
    }
  };
}

/** The address rules alone, for checking an endpoint URL when a webhook is saved. */
export function createUrlGuard(opts: { allowPrivate: boolean }) {
  return async (url: string) => {
    await checkUrl(url, { allowPrivate: opts.allowPrivate, field: 'url' });
  };
}
