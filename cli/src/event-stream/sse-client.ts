import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { HopApiError } from '@hop/shared/client';
import type { ErrorCode } from '@hop/shared';
import { createSseParser } from './sse-parser.js';

/** The first message of every stream: who is listening, and the secret events are signed with. */
export interface StreamReady {
  sessionId: string;
  secret: string;
  workspaceId: string;
  /** Named in every line, so a person reading the tail sees which workspace (null from an older server). */
  workspaceSlug?: string | null;
  events: string[] | 'all';
}

/** One event as the stream sends it: the raw body and the headers a webhook delivery would carry. */
export interface StreamEvent {
  /** The stream position (`id:`), resumed from with Last-Event-ID. */
  seq: string;
  eventId: string;
  type: string;
  deliveryId: string;
  body: string;
  headers: Record<string, string>;
}

export interface EventStreamOptions {
  baseUrl: string;
  workspaceId: string;
  /** Event types to receive; all when absent. */
  events?: string[];
  /** Credential and user agent. */
  headers: Record<string, string>;
  signal: AbortSignal;
  /** Called on every (re)connection; `reconnects` is 0 the first time. */
  onReady: (ready: StreamReady, info: { reconnects: number; resumedFrom?: string }) => void;
  /** Called once per event, in order: the next waits for the returned promise. */
  onEvent: (event: StreamEvent) => Promise<void> | void;
  onReconnecting?: (info: { attempt: number; delayMs: number; error: string }) => void;
  /** Without a byte for this long the connection counts as dead (the server pings every 15 s). */
  idleTimeoutMs?: number;
}

const MAX_BACKOFF_MS = 30_000;
// A credential the server refuses, or a workspace it does not show us, will not heal by waiting.
const FATAL_STATUSES = new Set([400, 401, 402, 403, 404]);

/**
 * Follows the workspace's event stream until `signal` aborts: reconnects with exponential backoff
 * (from the server's `retry:` hint up to 30 s, with jitter) and resumes with Last-Event-ID, so a
 * short disconnect loses nothing. Rejects with a HopApiError when the very first connection fails,
 * or when the server refuses the credential or the request at any point.
 */
export async function followEventStream(opts: EventStreamOptions): Promise<void> {
  let lastEventId: string | undefined;
  let retryMs = 1000;
  let attempt = 0;
  let connections = 0;
  // One chain across reconnections: events already received are still handled, in order.
  let handling: Promise<void> = Promise.resolve();
  let handlerError: unknown;

  while (!opts.signal.aborted) {
    try {
      await connectOnce(opts, lastEventId, {
        onRetry: (ms) => (retryMs = Math.max(100, ms)),
        onReady: (ready) => {
          opts.onReady(ready, { reconnects: connections, resumedFrom: connections ? lastEventId : undefined });
          connections++;
          attempt = 0;
        },
        onEvent: (event) => {
          lastEventId = event.seq;
          handling = handling.then(() => opts.onEvent(event)).catch((err) => void (handlerError ??= err));
        },
      });
      if (handlerError) throw handlerError;
      if (opts.signal.aborted) break;
      // The server ended the stream (a restart): come back at once, resuming.
      throw new HopApiError('NETWORK_ERROR', 'the server closed the stream', 0);
    } catch (err) {
      if (opts.signal.aborted) break;
      if (handlerError) throw handlerError;
      const apiErr = err as HopApiError;
      if (!connections || (apiErr instanceof HopApiError && FATAL_STATUSES.has(apiErr.statusCode))) throw err;
      attempt++;
      const delayMs = Math.min(MAX_BACKOFF_MS, retryMs * 2 ** (attempt - 1)) * (0.8 + Math.random() * 0.4);
      opts.onReconnecting?.({ attempt, delayMs: Math.round(delayMs), error: apiErr.message });
      await sleep(delayMs, undefined, { signal: opts.signal }).catch(() => {});
    }
  }
  await handling;
}

async function connectOnce(
  opts: EventStreamOptions,
  lastEventId: string | undefined,
  on: { onRetry: (ms: number) => void; onReady: (r: StreamReady) => void; onEvent: (e: StreamEvent) => void },
): Promise<void> {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const query = opts.events?.length ? `?events=${encodeURIComponent(opts.events.join(','))}` : '';
  const url = `${base}/v1/workspaces/${encodeURIComponent(opts.workspaceId)}/events/stream${query}`;
  const ac = new AbortController();
  const abort = () => ac.abort();
  opts.signal.addEventListener('abort', abort, { once: true });
  let idle: NodeJS.Timeout | undefined;
  let timedOut = false;
  const idleMs = opts.idleTimeoutMs ?? 45_000;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      timedOut = true;
      ac.abort();
    }, idleMs);
  };
  try {
    touch();
    let res;
    try {
      res = await request(url, {
        method: 'GET',
        headers: { ...opts.headers, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        signal: ac.signal,
        bodyTimeout: 0,
      });
    } catch (err) {
      throw new HopApiError('NETWORK_ERROR', `cannot reach ${base}: ${timedOut ? 'no answer' : (err as Error).message}`, 0);
    }
    if (res.statusCode !== 200) throw await httpError(res.statusCode, await res.body.text().catch(() => ''), base);
    if (!String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      await res.body.dump().catch(() => {});
      throw new HopApiError('INTERNAL_ERROR', `${base} did not answer with an event stream`, res.statusCode);
    }
    const parser = createSseParser({
      onRetry: on.onRetry,
      onMessage: (m) => {
        const data = JSON.parse(m.data) as Record<string, unknown>;
        if (m.event === 'ready') on.onReady(data as unknown as StreamReady);
        else on.onEvent({ ...(data as Omit<StreamEvent, 'seq'>), seq: m.lastEventId ?? '' });
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) {
        touch();
        parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
      }
    } catch (err) {
      if (opts.signal.aborted) return;
      throw new HopApiError('NETWORK_ERROR', timedOut ? `no data from ${base} for ${idleMs / 1000} s` : `stream interrupted: ${(err as Error).message}`, 0);
    }
  } finally {
    clearTimeout(idle);
    opts.signal.removeEventListener('abort', abort);
  }
}

async function httpError(status: number, text: string, base: string): Promise<HopApiError> {
  try {
    const err = (JSON.parse(text) as { error?: { code: ErrorCode; message: string; details?: Record<string, unknown> } }).error;
    if (err?.code) return new HopApiError(err.code, err.message, status, err.details ?? {});
  } catch {
    /* not the contract's error shape */
  }
  return new HopApiError(status === 401 ? 'UNAUTHORIZED' : 'INTERNAL_ERROR', `unexpected ${status} answer from ${base}`, status);
}
