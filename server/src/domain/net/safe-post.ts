import { isIP } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import { HopError } from '../errors.js';
import type { PostResult } from '../webhooks/webhook-sender.js';
import { checkUrl } from './safe-fetch.js';
import { pinnedAgent } from './pinned-agent.js';

/** Endpoints whose connections are kept between deliveries, least recently used dropped first. */
const MAX_KEPT_AGENTS = 64;
/** IP-literal endpoints whose check is kept. */
const MAX_KEPT_LITERALS = 1024;
/** Idle connections close after 2 s: shorter than any common server's keep-alive timeout, so a
 * delivery never goes down a connection the endpoint is closing. */
const KEEP_ALIVE_MS = 2_000;

/**
 * POSTs a webhook delivery under the address rules (docs/api.md, Events and webhooks): the host is resolved at every
 * attempt, every address checked, the connection pinned to the checked one; no redirect is
 * followed (a 3xx is a failure); the answer's body is read and dropped. Never throws.
 *
 * Connections are kept alive per endpoint origin and checked address: a burst of deliveries to
 * one endpoint reuses them instead of connecting (and for https, handshaking) once per delivery.
 * A host that resolves to another address gets another agent, pinned to that address.
 */
export function createSafePost(opts: { allowPrivate: boolean; resolve?: (host: string) => Promise<{ address: string; family: number }[]> }) {
  const agents = new Map<string, Agent>();
  /**
   * Endpoints written with an IP address: their check involves no DNS, so its verdict holds for
   * good and is kept (a host name is still resolved and checked at every attempt).
   */
  const literals = new Map<string, Awaited<ReturnType<typeof checkUrl>>>();
  async function check(url: string) {
    const kept = literals.get(url);
    if (kept) return kept;
    const target = await checkUrl(url, { allowPrivate: opts.allowPrivate, field: 'url', resolve: opts.resolve });
    if (isIP(target.url.hostname.replace(/^\[(.*)\]$/, '$1'))) {
      if (literals.size >= MAX_KEPT_LITERALS) literals.clear();
      literals.set(url, target);
    }
    return target;
  }
  function agentFor(origin: string, address: { address: string; family: number }, timeoutMs: number): Agent {
    const key = `${origin}|${address.address}|${timeoutMs}`;
    let agent = agents.get(key);
    if (agent) {
      agents.delete(key);
    } else {
      agent = pinnedAgent(address, timeoutMs, KEEP_ALIVE_MS);
      if (agents.size >= MAX_KEPT_AGENTS) {
        const [oldest, old] = agents.entries().next().value!;
        agents.delete(oldest);
        void old.close().catch(() => {}); // lets its requests in flight finish
      }
    }
    agents.set(key, agent);
    return agent;
  }

  return async function safePost(url: string, headers: string[], body: string | Buffer, timeoutMs: number): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let target;
    try {
      target = await check(url);
    } catch (err) {
      return { statusCode: null, durationMs: elapsed(), error: err instanceof HopError ? err.message : String(err) };
    }
    const agent = agentFor(target.url.origin, target.address, timeoutMs);
    try {
      // The agent's own timeouts bound the attempt (connecting, the answer's headers, each wait
      // for its body): a signal per request would add a timer and listeners to every delivery.
      const answer = await postOnce(agent, target.url, headers, body);
      return { statusCode: answer.statusCode, durationMs: elapsed(), error: null, retryAfterSeconds: retryAfter(answer.retryAfter) };
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || e.code?.includes('TIMEOUT');
      return {
        statusCode: null, durationMs: elapsed(), connectionFailed: true,
        error: timedOut ? `no answer within ${timeoutMs / 1000} s` : (e.code ?? e.message ?? 'request failed'),
      };
    }
  };
}

/** An answer's body is read up to this much and dropped; a longer one ends its connection. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * One POST through the agent, by undici's dispatch interface: what a delivery needs of the answer
 * is its status and Retry-After, so the body is counted and dropped as it arrives. (undici's
 * `request()` wraps every answer in a Readable stream and a promise chain first: most of the
 * client's CPU time a delivery on a fast endpoint.)
 */
function postOnce(agent: Agent, url: URL, headers: string[], body: string | Buffer): Promise<{ statusCode: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let retryAfterValue: string | undefined;
    let received = 0;
    let abort: ((err?: Error) => void) | undefined;
    const handler: Dispatcher.DispatchHandler = {
      onConnect(a) {
        abort = a;
      },
      onHeaders(status, rawHeaders) {
        statusCode = status;
        // Only a refusal's Retry-After matters (a 2xx is never retried).
        if (status >= 300 && rawHeaders) {
          for (let i = 0; i < rawHeaders.length; i += 2) {
            if (String(rawHeaders[i]).toLowerCase() === 'retry-after') retryAfterValue = String(rawHeaders[i + 1]);
          }
        }
        return true;
      },
      onData(chunk) {
        received += chunk.length;
        if (received > MAX_BODY_BYTES) abort?.(new Error('answer body over 64 KiB: not read further'));
        return true;
      },
      onComplete() {
        resolve({ statusCode, retryAfter: retryAfterValue });
      },
      onError(err) {
        // An answer that came and whose body then failed (too long, cut short) is still the answer.
        if (statusCode) resolve({ statusCode, retryAfter: retryAfterValue });
        else reject(err);
      },
    };
    agent.dispatch({ origin: url.origin, path: url.pathname + url.search, method: 'POST', headers, body }, handler);
  });
}

/** Retry-After in seconds, from either of its forms (delay-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfter(value: string | string[] | undefined): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d{1,10}$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The address rules alone, for checking an endpoint URL when a webhook is saved. */
export function createUrlGuard(opts: { allowPrivate: boolean }) {
  return async (url: string) => {
    await checkUrl(url, { allowPrivate: opts.allowPrivate, field: 'url' });
  };
}
