// The one helper module of the tests: a typed client on the shared route table, fresh accounts to
// act as, visits, waiting, and assertions that hold every answer to the wire conventions of
// docs/api.md (envelope, error shape, X-Request-Id, timestamps, ids), not only the part a test is about.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createHopClient, routeRequest, type HopClient, type RawResponse, type RouteInput, type RouteOutput } from '@hop/shared/client';
import { ERROR_STATUS, ID_PREFIXES, routes, type ErrorCode, type Plan, type Role, type RouteName, type Scope } from '@hop/shared';

export const API_URL = process.env.HOP_TEST_API_URL ?? 'http://127.0.0.1:3000';
export const ADMIN_TOKEN = process.env.HOP_TEST_ADMIN_TOKEN ?? '';
export const SHORT_DOMAIN = process.env.HOP_TEST_SHORT_DOMAIN ?? 'localhost:3000';
/** The header GET /metrics needs on every server of a run (test/run.mjs sets the token). */
export const METRICS_AUTH = { authorization: `Bearer ${process.env.HOP_TEST_METRICS_TOKEN ?? ''}` };

export const unique = (prefix = 't') => `${prefix}${randomBytes(5).toString('hex')}`;

/** A client that checks every success body against its route's schema (on another server: `baseUrl`). */
export const client = (auth: { token?: string; apiKey?: string } = {}, baseUrl = API_URL): HopClient =>
  createHopClient({ baseUrl, validateResponses: true, ...auth });

export const anonymous = client();

export interface Account {
  userId: string;
  email: string;
  password: string;
  token: string;
  api: HopClient;
}

export async function signup(baseUrl = API_URL): Promise<Account> {
  const email = `${unique('user')}@example.test`;
  const password = 'correct horse battery';
  const { data } = await client({}, baseUrl).call('signup', { body: { email, password, name: 'Test User' } });
  return { userId: data.user.id, email, password, token: data.token, api: client({ token: data.token }, baseUrl) };
}

export interface Team extends Account {
  workspaceId: string;
  slug: string;
}

/** A new user who owns a new workspace (on `plan`, set through the admin API). */
export async function team(plan: Plan = 'free', baseUrl = API_URL): Promise<Team> {
  const account = await signup(baseUrl);
  const slug = unique('ws-');
  const { data } = await account.api.call('createWorkspace', { body: { name: 'Test Workspace', slug } });
  if (plan !== 'free') await setPlan(data.id, plan, baseUrl);
  return { ...account, workspaceId: data.id, slug };
}

/** An address of its own for a request, for servers that trust the test's X-Forwarded-For. */
export const randomAddress = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;

/**
 * Servers that tests start themselves take HOP_ADMIN_TOKEN = ADMIN_TOKEN, so this works on them too.
 * Operator requests are limited per address (30 a minute at real limits), and on PostgreSQL every
 * server of a run shares the counters: each call comes from an address of its own.
 */
export async function setPlan(workspaceId: string, plan: Plan, baseUrl = API_URL) {
  const res = await client({}, baseUrl).raw('PATCH', `/v1/admin/workspaces/${workspaceId}`, {
    body: { plan },
    headers: { 'x-admin-token': ADMIN_TOKEN, 'x-forwarded-for': randomAddress() },
  });
  if (res.status !== 200) throw new Error(`setPlan failed: ${res.status} ${res.text}`);
}

export async function apiKey(t: Team, scopes: Scope[], name = 'test key') {
  const { data } = await t.api.call('createApiKey', { params: { workspaceId: t.workspaceId }, body: { name, scopes } });
  return { ...data, api: client({ apiKey: data.key }, t.api.baseUrl) };
}

export type { Role };

/** A fresh user who joins the team's workspace with `role`, through a real invite. */
export async function addMember(t: Team, role: Role): Promise<Account> {
  const account = await signup(t.api.baseUrl);
  const { data: invite } = await t.api.call('createInvite', {
    params: { workspaceId: t.workspaceId },
    body: { email: account.email, role },
  });
  await account.api.call('acceptInvite', { params: { token: invite.token } });
  return account;
}

export const BROWSER_UA = {
  desktopChrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  iphoneSafari: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

/**
 * Opens a short link (its URL, or a path on the test server) as a visitor would; the test server
 * trusts X-Forwarded-For from loopback.
 */
export async function visit(shortUrl: string, opts: { ua?: string; ip?: string; referer?: string; method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const u = shortUrl.startsWith('/') ? { pathname: shortUrl, search: '' } : new URL(shortUrl);
  const headers: Record<string, string> = { 'user-agent': opts.ua ?? BROWSER_UA.desktopChrome, ...opts.headers };
  if (opts.ip) headers['x-forwarded-for'] = opts.ip;
  if (opts.referer) headers.referer = opts.referer;
  if (opts.body) headers['content-type'] = 'application/x-www-form-urlencoded';
  return fetch(`${API_URL}${u.pathname}${u.search}`, { redirect: 'manual', method: opts.method ?? 'GET', headers, body: opts.body });
}

/** The value of the first line of a Prometheus text that `line` matches (undefined when none does). */
export const metricValue = (text: string, line: RegExp): number | undefined => {
  const m = text.split('\n').find((l) => line.test(l));
  return m ? Number(m.split(' ').at(-1)) : undefined;
};

/**
 * The sum of a metric's samples on a server whose labels include `labels`: the job's or the
 * dispatcher's own signal, for tests that show something did not happen.
 */
export async function metricSum(baseUrl: string, name: string, labels: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { ...METRICS_AUTH, ...headers } });
  const text = await res.text();
  // A refused scrape (429 past the per-address limit) has no metrics in it: never read it as zeros.
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}: ${text.slice(0, 200)}`);
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  return text.split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .filter((l) => wanted.every((w) => l.slice(0, l.lastIndexOf(' ')).includes(w)))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

/**
 * Waits until every click a server took is in the database: none buffered, spooled or being
 * written (these gauges are the process's own). A click written twice would be there by then.
 */
export async function clicksWritten(baseUrl: string, ms = 20_000): Promise<void> {
  const gauges = ['hop_click_buffer_depth', 'hop_click_spool_bytes', 'hop_click_write_seconds'];
  await eventually(async () => {
    const values = await Promise.all(gauges.map((name) => metricSum(baseUrl, name)));
    return values.every((v) => v === 0) ? true : undefined;
  }, ms, 'every click written');
}

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 5000, what = 'condition', everyMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

/** ISO 8601 UTC with milliseconds, as docs/api.md, Wire conventions writes every timestamp. */
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
    if (k === 'id' && typeof v === 'string') assert.match(v, new RegExp(`^(${ID_PREFIXES.join('|')})_[0-9A-Za-z]{16,}$`), `${p} is a prefixed id`);
    if (ID_PREFIX_OF[k] && v !== null) assert.match(String(v), idPattern(ID_PREFIX_OF[k]), `${p} is a ${ID_PREFIX_OF[k]}_ id`);
    checkWireValues(v, p);
  }
}

/** A route of the table called as `api.call` would, but answered raw (status, headers, body). */
export function send<N extends RouteName>(api: HopClient, name: N, input: RouteInput<N>): Promise<RawResponse> {
  const { method, path, init } = routeRequest(name, input);
  return api.raw(method, path, init);
}

/** The error body of docs/api.md, Wire conventions, exactly: nothing more (no stack), nothing less. */
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
  return { ...res, body: body as never as RouteOutput<N> };
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
