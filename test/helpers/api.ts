// Helpers for tests: a typed client on the shared route table, and fresh accounts to act as.
import { randomBytes } from 'node:crypto';
import { createHopClient, type HopClient } from '@hop/shared/client';
import type { Plan, Role, Scope } from '@hop/shared';

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

/** Opens a short link as a visitor would; the test server trusts X-Forwarded-For from loopback. */
export async function visit(shortUrl: string, opts: { ua?: string; ip?: string; referer?: string; method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const u = new URL(shortUrl);
  const headers: Record<string, string> = { 'user-agent': opts.ua ?? BROWSER_UA.desktopChrome, ...opts.headers };
  if (opts.ip) headers['x-forwarded-for'] = opts.ip;
  if (opts.referer) headers.referer = opts.referer;
  if (opts.body) headers['content-type'] = 'application/x-www-form-urlencoded';
  return fetch(`${API_URL}${u.pathname}${u.search}`, { redirect: 'manual', method: opts.method ?? 'GET', headers, body: opts.body });
}

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}
