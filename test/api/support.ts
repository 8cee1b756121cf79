// Assertions shared by the API tests: every answer is checked against the wire conventions of
// CONTRACT 1 (envelope, error shape, X-Request-Id, timestamps, ids), not only the part a test is about.
import assert from 'node:assert/strict';
import { fillPath, type HopClient, type RawResponse, type RouteInput } from '@hop/shared/client';
import { ERROR_STATUS, routes, type ErrorCode, type RouteName } from '@hop/shared';

/** ISO 8601 UTC with milliseconds, as CONTRACT 1 writes every timestamp. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const idPattern = (prefix: string) => new RegExp(`^${prefix}_[0-9A-Za-z]{16,}$`);

const ID_PREFIX_OF: Record<string, string> = {
  userId: 'usr', createdBy: 'usr', invitedBy: 'usr', workspaceId: 'ws',
};

/** Walks a body: every `...At` string is ISO with ms, every id-like field carries its prefix. */
export function checkWireValues(value: unknown, path = 'body'): void {
  if (Array.isArray(value)) return value.forEach((v, i) => checkWireValues(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    const p = `${path}.${k}`;
    if (/At$/.test(k) && v !== null) assert.match(String(v), ISO_MS, `${p} is ISO 8601 UTC with milliseconds`);
    if (k === 'id' && typeof v === 'string') assert.match(v, /^(usr|ws|lnk|qr|dom|wh|evt|dlv|key|inv|oac)_[0-9A-Za-z]{16,}$/, `${p} is a prefixed id`);
    if (ID_PREFIX_OF[k] && v !== null) assert.match(String(v), idPattern(ID_PREFIX_OF[k]), `${p} is a ${ID_PREFIX_OF[k]}_ id`);
    checkWireValues(v, p);
  }
}

function toQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) qs.set(k, String(v));
  const s = qs.toString();
  return s ? `?${s}` : '';
}

/** A route of the table called as `api.call` would, but answered raw (status, headers, body). */
export function send<N extends RouteName>(api: HopClient, name: N, input: RouteInput<N>): Promise<RawResponse> {
  const def = routes[name];
  const i = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string>; idempotencyKey?: string };
  const headers = { ...i.headers };
  if (i.idempotencyKey) headers['idempotency-key'] = i.idempotencyKey;
  return api.raw(def.method, fillPath(def.path, i.params) + toQueryString(i.query), { body: i.body, headers });
}

/** The error body of CONTRACT 1, exactly: nothing more (no stack), nothing less. */
export function assertErrorShape(res: RawResponse, code: ErrorCode, status: number) {
  assert.equal(ERROR_STATUS[code], status, `the contract gives ${code} the status ${status}`);
  assert.equal(res.status, status, `status of ${res.text.slice(0, 300)}`);
  assert.match(String(res.headers['content-type']), /application\/json/);
  assert.ok(res.headers['x-request-id'], 'X-Request-Id on an error');
  const body = res.body as { success: boolean; error: Record<string, unknown> };
  assert.deepEqual(Object.keys(body).sort(), ['error', 'success']);
  assert.equal(body.success, false);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'details', 'message', 'statusCode']);
  assert.equal(body.error.code, code, `code of ${res.text.slice(0, 300)}`);
  assert.equal(body.error.statusCode, status);
  assert.equal(typeof body.error.message, 'string');
  assert.ok((body.error.message as string).length > 0);
  assert.equal(typeof body.error.details, 'object');
  assert.ok(body.error.details !== null && !Array.isArray(body.error.details));
  assert.doesNotMatch(res.text, /\n\s+at |"stack"|node_modules|\.ts:\d+/, 'no stack trace in an error');
  if (code === 'VALIDATION_ERROR') assertIssues(body.error.details);
  return body.error as { code: ErrorCode; message: string; statusCode: number; details: Record<string, unknown> };
}

/** `details.issues: [{path, message}]`, at least one. */
export function assertIssues(details: unknown) {
  const issues = (details as { issues?: unknown }).issues;
  assert.ok(Array.isArray(issues) && issues.length > 0, `details.issues in ${JSON.stringify(details)}`);
  for (const issue of issues as Record<string, unknown>[]) {
    assert.deepEqual(Object.keys(issue).sort(), ['message', 'path']);
    assert.equal(typeof issue.path, 'string');
    assert.equal(typeof issue.message, 'string');
  }
  return issues as { path: string; message: string }[];
}

/** Calls a route expecting a refusal; returns the error for further checks. */
export async function fails<N extends RouteName>(
  api: HopClient, name: N, input: RouteInput<N>, code: ErrorCode, status: number = ERROR_STATUS[code],
) {
  const res = await send(api, name, input);
  return assertErrorShape(res, code, status);
}

/** Same as `fails`, for a raw request outside the typed inputs (wrong types, unknown fields...). */
export async function rawFails(
  api: HopClient, method: string, path: string, init: Parameters<HopClient['raw']>[2], code: ErrorCode, status: number = ERROR_STATUS[code],
) {
  return assertErrorShape(await api.raw(method, path, init), code, status);
}

/** Calls a route expecting success with its declared status; the body is parsed by the route's schema. */
export async function succeeds<N extends RouteName>(api: HopClient, name: N, input: RouteInput<N>) {
  const res = await send(api, name, input);
  const def = routes[name];
  assert.equal(res.status, def.status, `${name}: ${res.text.slice(0, 500)}`);
  assert.ok(res.headers['x-request-id'], 'X-Request-Id on a success');
  const body = res.body as { success: boolean; data: unknown };
  assert.equal(body.success, true);
  assert.ok('data' in body);
  def.response.parse(body);
  checkWireValues(body.data);
  return { ...res, body: body as never as import('@hop/shared/client').RouteOutput<N> };
}

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A browser's User-Agent: visits without one look like bots, which never count as clicks. */
export const BROWSER_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** A visit to a short link on the test server (which serves the short domain on its API host). */
export function visit(pathAndQuery: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  const base = process.env.HOP_TEST_API_URL ?? 'http://127.0.0.1:3000';
  return fetch(`${base}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: { 'user-agent': BROWSER_UA, ...init.headers },
  });
}
