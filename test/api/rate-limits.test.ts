// Plan rate limits (docs/api.md, Limits) on servers started here with the real limits (the shared test
// server runs them 1000 times looser): both windows, per credential and per workspace, enterprise
// limits from the admin API, per-address limits without a credential, the headers, the usage
// endpoint, and counters shared by two processes on PostgreSQL and through Redis.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createHopClient, type HopClient, type RawResponse } from '@hop/shared/client';
import { ADMIN_TOKEN, anonymous, apiKey, client, setPlan, team as sharedTeam, unique, visit } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';

const REAL = { HOP_RATE_LIMIT_SCALE: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_TRUST_PROXY: '127.0.0.1' };
const dataDir = () => scratchDir('hop-rl-');
let server: Awaited<ReturnType<typeof startServer>>;

before(async () => {
  server = await startServer({ dataDir: dataDir(), env: REAL });
});
after(async () => {
  assert.equal(await server.stop(), 0);
});

/**
 * A new owner of a new free workspace, signed up from an address of its own: on PostgreSQL every
 * server of the run counts 127.0.0.1's sign-ups on one shared counter, spent by the other tests.
 */
const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;
async function team(plan: 'free', baseUrl: string) {
  const email = `${unique('user')}@example.test`;
  const res = await client({}, baseUrl).raw('POST', '/v1/auth/signup', {
    body: { email, password: 'correct horse battery', name: 'Limits' }, headers: { 'x-forwarded-for': randomIp() },
  });
  assert.equal(res.status, 201, res.text);
  const { user, token } = (res.body as { data: { user: { id: string }; token: string } }).data;
  const api = client({ token }, baseUrl);
  const slug = unique('ws-');
  const { data } = await api.call('createWorkspace', { body: { name: 'Limits', slug } });
  void plan;
  return { userId: user.id, email, password: 'correct horse battery', token, api, workspaceId: data.id, slug };
}

const getWs = (api: HopClient, workspaceId: string, headers: Record<string, string> = {}) =>
  api.raw('GET', `/v1/workspaces/${workspaceId}`, { headers });

function limits(res: RawResponse) {
  return {
    limit: Number(res.headers['x-ratelimit-limit']),
    remaining: Number(res.headers['x-ratelimit-remaining']),
    reset: Number(res.headers['x-ratelimit-reset']),
  };
}

/** Minute windows are fixed: start a sequence early in one, so it does not straddle two. */
async function freshMinute(need = 15_000) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < need) await new Promise((r) => setTimeout(r, left + 100));
}

function assert429(res: RawResponse, limit: number, window: '1m' | '1h') {
  assert.equal(res.status, 429, res.text);
  const err = (res.body as { error: { code: string; details: { limit: number; window: string; resetAt: string } } }).error;
  assert.equal(err.code, 'RATE_LIMIT_EXCEEDED');
  assert.equal(err.details.limit, limit);
  assert.equal(err.details.window, window);
  const resetAt = Date.parse(err.details.resetAt);
  const windowMs = window === '1m' ? 60_000 : 3_600_000;
  assert.ok(resetAt > Date.now() && resetAt <= Date.now() + windowMs, err.details.resetAt);
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= windowMs / 1000, `Retry-After ${res.headers['retry-after']}`);
  assert.equal(Math.abs(retryAfter - Math.ceil((resetAt - Date.now()) / 1000)) <= 2, true, 'Retry-After matches resetAt');
  const h = limits(res);
  assert.equal(h.limit, limit);
  assert.equal(h.remaining, 0);
  assert.equal(h.reset, Math.ceil(resetAt / 1000));
}

test('free plan: the workspace takes 20 requests a minute, whatever the credential; the 21st answers 429', async () => {
  await freshMinute();
  const t = await team('free', server.url);
  const k1 = await apiKey(t, ['workspace:read']); // the first request counted on the workspace
  const k2 = await apiKey(t, ['workspace:read']); // the second
  let counted = 2;
  let res = await getWs(k1.api, t.workspaceId);
  counted++;
  assert.equal(res.status, 200);
  assert.deepEqual([limits(res).limit, limits(res).remaining], [20, 20 - counted]);
  assert.ok(Math.abs(limits(res).reset * 1000 - (Math.floor(Date.now() / 60_000) + 1) * 60_000) <= 1000, 'reset: the end of this minute, in Unix seconds');
  while (counted < 20) {
    res = await getWs(counted % 2 ? k1.api : k2.api, t.workspaceId);
    counted++;
    assert.equal(res.status, 200);
    assert.equal(limits(res).remaining, 20 - counted);
  }
  assert429(await getWs(k1.api, t.workspaceId), 20, '1m');
  // The other key is refused on this workspace too: the workspace's counter is spent.
  assert429(await getWs(k2.api, t.workspaceId), 20, '1m');
  // The owner's session has its own counter and, outside the workspace, is not refused.
  const me = await t.api.raw('GET', '/v1/me');
  assert.equal(me.status, 200);
  assert.ok(limits(me).remaining > 0);
});

test('per credential: one session spread over two workspaces is refused at its own 21st request', async () => {
  await freshMinute();
  const a = await team('free', server.url); // createWorkspace: request 1 of this session
  const { data: b } = await a.api.call('createWorkspace', { body: { name: 'Second', slug: unique('ws-') } }); // 2
  let counted = 2;
  while (counted < 20) {
    const res = await getWs(a.api, counted % 2 ? a.workspaceId : b.id);
    counted++;
    assert.equal(res.status, 200, res.text);
  }
  // Each workspace has spent about 9, but the credential has spent 20.
  const refused = await getWs(a.api, a.workspaceId);
  assert429(refused, 20, '1m');
  const key = await apiKey({ ...a, api: client({ token: a.token }, server.url) }, ['workspace:read']).catch((err) => err);
  assert.equal(key.statusCode, 429, 'creating a key is a request of the same session');
});

test('enterprise limits set through the admin API apply at once; the hourly window refuses too', async () => {
  await freshMinute();
  const t = await team('free', server.url);
  const admin = await client({}, server.url).raw('PATCH', `/v1/admin/workspaces/${t.workspaceId}`, {
    body: { plan: 'enterprise', rateLimit: { perHour: 6, perMinute: 50 } },
    headers: { 'x-admin-token': ADMIN_TOKEN, 'x-forwarded-for': randomIp() },
  });
  assert.equal(admin.status, 200, admin.text);
  const key = await apiKey(t, ['workspace:read']); // 1 of 6 this hour
  for (let i = 2; i <= 6; i++) {
    const res = await getWs(key.api, t.workspaceId);
    assert.equal(res.status, 200);
    // The hour is the tighter window here, so the headers speak of it.
    assert.deepEqual([limits(res).limit, limits(res).remaining], [6, 6 - i]);
  }
  assert429(await getWs(key.api, t.workspaceId), 6, '1h');
  // Without custom values an enterprise workspace has business limits.
  await client({}, server.url).raw('PATCH', `/v1/admin/workspaces/${t.workspaceId}`, {
    body: { plan: 'enterprise', rateLimit: null }, headers: { 'x-admin-token': ADMIN_TOKEN, 'x-forwarded-for': randomIp() },
  });
  const res = await getWs(key.api, t.workspaceId);
  assert.equal(res.status, 200);
  assert.equal(limits(res).limit, 2000);
});

test('a route whose workspace is implied counts on that workspace at its plan: PATCH /v1/links/{id} is refused once the free workspace is', async () => {
  await freshMinute();
  const t = await team('free', server.url);
  // The same user owns a business workspace: outside any workspace their session gets 2000 a minute.
  const { data: big } = await t.api.call('createWorkspace', { body: { name: 'Big', slug: unique('ws-') } });
  await setPlan(big.id, 'business', server.url);
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/implied' } }); // 1 on the workspace
  const key = await apiKey(t, ['links:read']); // 2
  let counted = 2;
  let res = await key.api.raw('GET', `/v1/workspaces/${t.workspaceId}/links`);
  while (res.status === 200) {
    counted++;
    res = await key.api.raw('GET', `/v1/workspaces/${t.workspaceId}/links`);
  }
  assert.equal(counted, 20);
  assert429(res, 20, '1m');
  // The owner's session names the workspace only through the link, or the link's QR codes.
  assert429(await t.api.raw('PATCH', `/v1/links/${link.id}`, { body: { title: 'still limited' } }), 20, '1m');
  assert429(await t.api.raw('GET', `/v1/links/${link.id}/qr`), 20, '1m');
  // The business workspace and the account itself are not refused, at their own limits.
  const me = await t.api.raw('GET', '/v1/me');
  assert.equal(me.status, 200);
  assert.equal(limits(me).limit, 2000);
  const bigRes = await getWs(t.api, big.id);
  assert.equal(bigRes.status, 200);
  assert.equal(limits(bigRes).limit, 2000);
});

test('X-RateLimit-Remaining is true for one user working in workspaces on different plans', async () => {
  await freshMinute();
  const t = await team('free', server.url); // createWorkspace: 1 on the session
  const { data: pro } = await t.api.call('createWorkspace', { body: { name: 'Pro', slug: unique('ws-') } }); // 2
  await setPlan(pro.id, 'pro', server.url);
  let session = 2;
  for (let i = 1; i <= 30; i++) {
    const res = await getWs(t.api, pro.id);
    session++;
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([limits(res).limit, limits(res).remaining], [500, 500 - session]);
  }
  // The free workspace: its own 20, each answer saying exactly what is left; then refused.
  for (let i = 1; i <= 20; i++) {
    const res = await getWs(t.api, t.workspaceId);
    session++;
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([limits(res).limit, limits(res).remaining], [20, 20 - i], `request ${i} on the free workspace`);
  }
  assert429(await getWs(t.api, t.workspaceId), 20, '1m');
  // The refusal spent nothing; the pro workspace still answers, with the session's true count.
  const res = await getWs(t.api, pro.id);
  session++;
  assert.equal(res.status, 200);
  assert.deepEqual([limits(res).limit, limits(res).remaining], [500, 500 - session]);
});

test('X-Admin-Token guesses are limited like API keys: 30 a minute per address, the right token included once over', async () => {
  await freshMinute(20_000);
  const t = await team('free', server.url);
  const ip = randomIp();
  const attempt = (token: string, from = ip) => client({}, server.url).raw('PATCH', `/v1/admin/workspaces/${t.workspaceId}`, {
    body: { plan: 'pro' }, headers: { 'x-admin-token': token, 'x-forwarded-for': from },
  });
  for (let i = 1; i <= 30; i++) {
    const res = await attempt(`guess-${i}`);
    assert.equal(res.status, 401, res.text);
    assert.deepEqual([limits(res).limit, limits(res).remaining], [30, 30 - i]);
  }
  assert429(await attempt('guess-31'), 30, '1m');
  // Over the limit the right token is refused as well: a guess cannot be told right from wrong.
  assert429(await attempt(ADMIN_TOKEN), 30, '1m');
  assert.equal((await t.api.call('getWorkspace', { params: { workspaceId: t.workspaceId } })).data.plan, 'free');
  // The operator elsewhere is served.
  assert.equal((await attempt(ADMIN_TOKEN, randomIp())).status, 200);
});

test('without a credential, sign-up and log-in are limited per address (30 a minute)', async () => {
  await freshMinute(20_000);
  const ip = randomIp();
  const api = client({}, server.url);
  // A new unknown e-mail each time: the address is limited here, not an account.
  const loginHere = () => api.raw('POST', '/v1/auth/login', { body: { email: `${unique('nobody')}@example.test`, password: 'wrong password' }, headers: { 'x-forwarded-for': ip } });
  // Thirty slow password checks on a loaded machine may straddle two fixed windows: the count
  // starts again with the window the answers name (X-RateLimit-Reset), and must reach 30 in one.
  let window = 0;
  let used = 0;
  for (;;) {
    const res = await loginHere();
    if (limits(res).reset !== window) [window, used] = [limits(res).reset, 0];
    if (++used > 30) {
      assert429(res, 30, '1m');
      break;
    }
    assert.equal(res.status, 401, res.text);
    assert.deepEqual([limits(res).limit, limits(res).remaining], [30, 30 - used]);
  }
  // A bad API key counts against the address as well: refused while this window lasts.
  const badKey = await createHopClient({ baseUrl: server.url, apiKey: `hop_live_${'x'.repeat(32)}` }).raw('GET', '/v1/me', { headers: { 'x-forwarded-for': ip } });
  assert.equal(badKey.status, limits(badKey).reset === window ? 429 : 401);
  // Another address is not affected.
  const elsewhere = await api.raw('POST', '/v1/auth/login', { body: { email: 'nobody@example.test', password: 'wrong password' }, headers: { 'x-forwarded-for': randomIp() } });
  assert.equal(elsewhere.status, 401);
});

test('usage: plan, limits and what remains of the request windows and the QR quota', async () => {
  const t = await team('free', server.url);
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/u' } });
  await t.api.call('createQrCode', { params: { linkId: link.id }, body: { format: 'svg' } });
  const { data } = await t.api.call('getUsage', { params: { workspaceId: t.workspaceId } });
  assert.equal(data.plan, 'free');
  assert.deepEqual(data.limits, { requestsPerHour: 100, requestsPerMinute: 20, qrPerHour: 10, clickRetentionDays: 30 });
  assert.equal(data.rateLimit.minute.limit, 20);
  assert.equal(data.rateLimit.hour.limit, 100);
  // createLink, createQrCode (no workspace in its path: not on this counter) and this call.
  assert.ok(data.rateLimit.minute.remaining <= 18 && data.rateLimit.minute.remaining >= 17, JSON.stringify(data.rateLimit));
  assert.ok(Date.parse(data.rateLimit.minute.resetAt) > Date.now());
  assert.equal(data.qr.limit, 10);
  assert.equal(data.qr.remaining, 9);
  await setPlan(t.workspaceId, 'pro', server.url);
  const pro = (await t.api.call('getUsage', { params: { workspaceId: t.workspaceId } })).data;
  assert.deepEqual(pro.qr, { limit: null, remaining: null, resetAt: null });
  assert.equal(pro.limits.requestsPerMinute, 500);
});

test('every API response carries X-RateLimit-*, errors included; redirects carry none', async () => {
  const t = await sharedTeam('free'); // the shared server: limits scaled, headers the same
  // A reset is later than the request that reported it: a window may end while the test runs.
  const sentAt = Date.now() / 1000;
  const responses = [
    await t.api.raw('GET', '/v1/me'),
    await t.api.raw('GET', '/v1/workspaces'),
    await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: 'https://example.com/h' } }),
    await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: 'no-protocol' } }),
    await t.api.raw('GET', `/v1/workspaces/ws_${'0'.repeat(16)}`),
    await anonymous.raw('GET', '/v1/me'),
    await anonymous.raw('POST', '/v1/auth/login', { body: { email: 'x@example.test', password: 'nope nope' } }),
  ];
  const link = (responses[2].body as { data: { id: string; shortUrl: string } }).data;
  const reader = await apiKey(t, ['links:read']);
  const stranger = await sharedTeam('free');
  // Errors of every kind to a request that presented a credential (docs/api.md, Access), on routes that
  // name their workspace and on routes that imply it.
  responses.push(
    await t.api.raw('PATCH', `/v1/links/lnk_${'0'.repeat(16)}`, { body: { title: 'x' } }),
    await t.api.raw('PATCH', `/v1/links/${link.id}`, { body: { nope: true } }),
    await t.api.raw('GET', '/v1/workspaces/not-an-id'),
    await t.api.raw('GET', `/v1/qr/qr_${'0'.repeat(16)}`),
    await reader.api.raw('PATCH', `/v1/links/${link.id}`, { body: { title: 'x' } }),
    await stranger.api.raw('PATCH', `/v1/links/${link.id}`, { body: { title: 'x' } }),
    await reader.api.raw('POST', '/v1/workspaces', { body: { name: 'x', slug: unique('ws-') } }),
    await t.api.raw('GET', '/v1/no-such-route'),
    await reader.api.raw('GET', '/api/v1/nothing-here'),
  );
  assert.deepEqual(responses.map((r) => r.status), [200, 200, 201, 400, 404, 401, 401, 404, 400, 400, 404, 403, 404, 403, 404, 404]);
  for (const r of responses) {
    const h = limits(r);
    assert.ok(h.limit > 0 && h.remaining >= 0 && h.remaining <= h.limit, JSON.stringify(r.headers));
    assert.ok(h.reset > sentAt && h.reset <= Date.now() / 1000 + 3600, `reset ${h.reset} in Unix seconds`);
  }
  const redirect = await visit(link.shortUrl);
  assert.equal(redirect.status, 302);
  assert.equal(redirect.headers.get('x-ratelimit-limit'), null);
});

async function reachable(port: number) {
  return new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.end(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** Alternates requests between two servers; the free workspace must still stop at 20 in all. */
async function twoProcessesShareOneLimit(env: Record<string, string>) {
  await freshMinute(20_000);
  const [a, b] = await Promise.all([startServer({ dataDir: dataDir(), env }), startServer({ dataDir: dataDir(), env })]);
  try {
    const t = await team('free', a.url);
    const key = await apiKey(t, ['workspace:read']); // 1 on the workspace
    const onB = createHopClient({ baseUrl: b.url, apiKey: key.key });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await getWs(i % 2 ? onB : key.api, t.workspaceId)).status);
    assert.deepEqual(statuses, [...Array(19).fill(200), ...Array(11).fill(429)]);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}

test('two processes on one PostgreSQL do not double a limit', { skip: !process.env.DATABASE_URL && 'PostgreSQL only' }, async () => {
  await twoProcessesShareOneLimit(REAL);
});

test('two processes sharing Redis do not double a limit', { skip: !process.env.DATABASE_URL && 'two processes need one PostgreSQL' }, async (t) => {
  if (!(await reachable(6379))) return t.skip('no Redis on 127.0.0.1:6379');
  await twoProcessesShareOneLimit({ ...REAL, REDIS_URL: `redis://127.0.0.1:6379/${3 + Math.floor(Math.random() * 10)}` });
});

test('with REDIS_URL the limits hold the same (counters in Redis)', async (t) => {
  if (!(await reachable(6379))) return t.skip('no Redis on 127.0.0.1:6379');
  await freshMinute();
  const s = await startServer({ dataDir: dataDir(), env: { ...REAL, REDIS_URL: 'redis://127.0.0.1:6379/2' } });
  try {
    const tm = await team('free', s.url);
    const key = await apiKey(tm, ['workspace:read']);
    for (let i = 2; i <= 20; i++) {
      const res = await getWs(key.api, tm.workspaceId);
      assert.equal(res.status, 200);
      assert.equal(limits(res).remaining, 20 - i);
    }
    assert429(await getWs(key.api, tm.workspaceId), 20, '1m');
  } finally {
    assert.equal(await s.stop(), 0);
  }
});
