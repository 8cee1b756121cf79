// Destination health against loopback receivers only: the check endpoint's four states, the
// address rules (a private destination without HOP_ALLOW_PRIVATE_URLS is unreachable and gets no
// request), and the sweep job (test/in-process/link-health-job.test.ts shows that its first run
// waits a whole interval). Also the trusted country header.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { Link } from '@hop/shared';
import { eventually, succeeds, team, type Team } from '../helpers/api.js';
import { freePort, startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';

let server: Awaited<ReturnType<typeof startServer>>;
let receiver: Server;
let base: string;
const seen: { method: string; path: string; at: number }[] = [];

before(async () => {
  receiver = createServer((req, res) => {
    seen.push({ method: req.method!, path: req.url!, at: Date.now() });
    const path = req.url!;
    if (path.startsWith('/ok')) res.writeHead(200).end('fine');
    else if (path === '/gone') res.writeHead(404).end();
    else if (path === '/moved') res.writeHead(301, { location: '/ok' }).end();
    else if (path.startsWith('/loop')) res.writeHead(302, { location: `/loop${Number(path.slice(5) || 0) + 1}` }).end();
    else if (path === '/no-head') res.writeHead(req.method === 'HEAD' ? 405 : 200).end();
    else res.writeHead(500).end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  server = await startServer({
    dataDir: scratchDir('hop-health-'),
    env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_GEO_HEADER: 'CF-IPCountry' },
  });
});
after(async () => {
  assert.equal(await server.stop(), 0);
  receiver.close();
});

const check = async (t: Team, link: Link) =>
  (await succeeds(t.api, 'checkLink', { params: { workspaceId: t.workspaceId, linkId: link.id } })).body.data.health;
const create = async (t: Team, url: string) => (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url } })).data;

test('check: ok, redirect, broken (4xx, 5xx, too many redirects) and unreachable; HEAD, then GET', async () => {
  const t = await team('free', server.url);
  const states: [string, string, number | null][] = [
    ['/ok', 'ok', 200],
    ['/moved', 'redirect', 301],
    ['/gone', 'broken', 404],
    ['/error', 'broken', 500],
    ['/loop', 'broken', 302],
    ['/no-head', 'ok', 200],
  ];
  for (const [path, status, statusCode] of states) {
    const link = await create(t, `${base}${path}`);
    assert.equal(link.health, null, 'null until checked');
    const health = await check(t, link);
    assert.equal(health?.status, status, path);
    assert.equal(health?.statusCode, statusCode, path);
    assert.ok(health?.checkedAt);
    const stored = (await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: link.id } })).data;
    assert.deepEqual(stored.health, health);
  }
  // HEAD first; the GET only when HEAD was refused.
  assert.deepEqual(seen.filter((s) => s.path === '/no-head').map((s) => s.method), ['HEAD', 'GET']);
  assert.deepEqual(seen.filter((s) => s.path === '/ok').map((s) => s.method).slice(0, 1), ['HEAD']);
  // At most 5 redirects followed: /loop, /loop1 ... /loop5.
  assert.equal(seen.filter((s) => s.path.startsWith('/loop') && s.method === 'HEAD').length, 6);
  const port = await freePort();
  const closed = await create(t, `http://127.0.0.1:${port}/`);
  assert.deepEqual({ ...(await check(t, closed)), checkedAt: 'x' }, { status: 'unreachable', statusCode: null, checkedAt: 'x' });
});

test('health is read-only: a link body carrying it is refused', async () => {
  const t = await team('free', server.url);
  const res = await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, {
    body: { url: `${base}/ok`, health: { status: 'ok', statusCode: 200, checkedAt: new Date().toISOString() } },
  });
  assert.equal(res.status, 400);
});

test('without HOP_ALLOW_PRIVATE_URLS a private destination is unreachable and no request goes out', async () => {
  // The shared test server does not allow private addresses.
  const t = await team();
  const before = seen.length;
  const link = (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: `${base}/ok?private` } })).data;
  const health = (await succeeds(t.api, 'checkLink', { params: { workspaceId: t.workspaceId, linkId: link.id } })).body.data.health;
  assert.equal(health?.status, 'unreachable');
  assert.equal(health?.statusCode, null);
  assert.equal(seen.length, before, 'the receiver got nothing');
});

test('country from the trusted header when HOP_GEO_HEADER is set', async () => {
  const t = await team('free', server.url);
  const { data: link } = await t.api.call('createLink', {
    params: { workspaceId: t.workspaceId },
    body: { url: 'https://example.com/else', rules: [{ when: { country: ['AT', 'CH'] }, url: 'https://example.com/at' }] },
  });
  const go = async (headers: Record<string, string>) =>
    (await fetch(`${server.url}/${link.slug}`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 Firefox/127.0', ...headers } })).headers.get('location');
  assert.equal(await go({ 'cf-ipcountry': 'AT' }), 'https://example.com/at');
  // The header wins over the visitor's address (in Germany by the offline database).
  assert.equal(await go({ 'cf-ipcountry': 'CH', 'x-forwarded-for': '5.9.0.1' }), 'https://example.com/at');
  assert.equal(await go({ 'cf-ipcountry': 'DE' }), 'https://example.com/else');
  assert.equal(await go({}), 'https://example.com/else');
});

test('the sweep job checks stale links on its interval, never before one interval has passed', async () => {
  // However slowly the machine makes the links, no request may reach them earlier than one
  // interval after the server was started. Its own embedded database: a sweep covers every link of
  // its database, and only this test's links (on the loopback receiver) may be requested.
  const startedAt = Date.now();
  const sweeper = await startServer({
    dataDir: scratchDir('hop-sweep-'),
    env: { DATABASE_URL: '', HOP_ALLOW_PRIVATE_URLS: '1', HOP_LINK_CHECK_MS: '10000', HOP_LINK_CHECK_HOST_SPACING_MS: '50' },
  });
  try {
    const t = await team('free', sweeper.url);
    const good = await create(t, `${base}/ok?sweep-good`);
    const bad = await create(t, `${base}/gone?sweep`);
    const health = async (id: string) => (await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: id } })).data.health;
    const checked = await eventually(async () => ((await health(bad.id)) && (await health(good.id)) ? true : undefined), 30_000, 'the sweep');
    assert.ok(checked);
    assert.equal((await health(good.id))?.status, 'ok');
    assert.equal((await health(bad.id))?.status, 'broken');
    const early = seen.filter((s) => s.path.includes('sweep') && s.at < startedAt + 10_000);
    assert.deepEqual(early, [], 'requests before the first interval had passed');
  } finally {
    assert.equal(await sweeper.stop(), 0);
  }
});
