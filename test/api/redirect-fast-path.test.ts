// The redirector's fast path (server/src/redirector/fast-redirect.ts) answers plain cached links
// before Fastify routes them. These tests pin down that it is invisible: the same answer as the
// routed path, the same recording, and it declines everything it must not serve. A server of its
// own, so the fast-path counter moves only with this file's visits.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link } from '@hop/shared';
import { ADMIN_TOKEN, BROWSER_UA, clicksWritten, eventually, METRICS_AUTH, team, type Team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';

let server: Awaited<ReturnType<typeof startServer>>;
let t: Team;

before(async () => {
  server = await startServer({
    dataDir: scratchDir('hop-fast-'),
    env: { HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_TRUST_PROXY: '127.0.0.1', HOP_CLICK_FLUSH_MS: '100' },
  });
  t = await team('pro', server.url);
});
after(() => server.stop());

async function fastVisits(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: METRICS_AUTH })).text();
  const line = text.split('\n').find((l) => l.startsWith('hop_redirect_fast_path_total '));
  return Number(line?.split(' ')[1] ?? NaN);
}

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${server.url}${path}`, { redirect: 'manual', method, headers: { 'user-agent': BROWSER_UA.desktopChrome, ...headers } });

const create = async (body: Record<string, unknown>): Promise<Link> =>
  (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body })).data;

/** The headers that make up a redirect's answer, without those that differ per response. */
function answer(res: Response) {
  const h = Object.fromEntries([...res.headers].filter(([k]) => !['date', 'x-request-id', 'keep-alive', 'connection'].includes(k)));
  return { status: res.status, headers: h };
}

test('a cached link gets the same answer as through the router, and the visit is counted the same', async () => {
  const link = await create({ url: 'https://example.com/landing?keep=1' });
  const before = await fastVisits();
  const first = await get(`/${link.slug}`); // a cache miss: the router serves it and fills the cache
  assert.equal(await fastVisits(), before, 'a miss is not served by the fast path');
  const second = await get(`/${link.slug}`);
  assert.equal(await fastVisits(), before + 1, 'the cached link is');
  assert.deepEqual(answer(second), answer(first));
  assert.equal(second.status, 302);
  assert.equal(second.headers.get('location'), 'https://example.com/landing?keep=1');
  assert.equal(second.headers.get('cache-control'), 'private, no-store');
  assert.match(String(second.headers.get('x-request-id')), /^req_/);

  // The visit's query joins the destination's without overriding it; a caller's request id is kept.
  const withQuery = await get(`/${link.slug}?utm_source=cli&keep=2`, { 'x-request-id': 'trace-0123456789' });
  assert.equal(withQuery.headers.get('location'), 'https://example.com/landing?keep=1&utm_source=cli');
  assert.equal(withQuery.headers.get('x-request-id'), 'trace-0123456789');
  assert.equal(await fastVisits(), before + 2);

  // Recorded as the router would: the trusted proxy's client address gives the country; a bot is
  // redirected and not counted.
  assert.equal((await get(`/${link.slug}`, { 'x-forwarded-for': '81.2.69.142' })).status, 302);
  assert.equal((await get(`/${link.slug}`, { 'user-agent': BROWSER_UA.googlebot })).status, 302);
  assert.equal(await fastVisits(), before + 4);
  const params = { workspaceId: t.workspaceId, linkId: link.id };
  const stats = await eventually(async () => {
    const { data } = await t.api.call('getLinkAnalytics', { params, query: { groupBy: 'country' } });
    return data.totalClicks === 4 ? data : undefined;
  }, 5000, 'four counted clicks');
  assert.deepEqual(stats.groups?.find((g) => g.key === 'GB')?.clicks, 1);
  // The link's counter comes from the aggregation job, which may run a moment after analytics see
  // the raw clicks.
  await eventually(async () => ((await t.api.call('getLink', { params })).data.clicks === 4 ? true : undefined), 5000, 'the link counter at four');
});

// Expiry, which the fast path declines too, is shown where the clock can be moved (test/in-process/expiry.test.ts).
test('what the fast path declines goes through the router: HEAD, passwords, limits, own paths, odd slugs', async () => {
  const plain = await create({ url: 'https://example.com/plain' });
  const locked = await create({ url: 'https://example.com/secret', password: 'open sesame' });
  const limited = await create({ url: 'https://example.com/limited', maxClicks: 1 });
  for (const l of [plain, locked, limited]) await get(`/${l.slug}`, { 'user-agent': BROWSER_UA.googlebot }); // fill the cache
  const before = await fastVisits();

  assert.equal((await get(`/${plain.slug}`, {}, 'HEAD')).status, 302);
  const form = await get(`/${locked.slug}`);
  assert.equal(form.status, 200);
  assert.ok(!(await form.text()).includes('example.com/secret'));
  assert.equal((await get(`/${limited.slug}`)).status, 302);
  assert.equal((await get(`/${limited.slug}`)).status, 410, 'the limit holds');
  assert.equal((await get('/healthz')).status, 200);
  assert.equal((await get('/metrics', METRICS_AUTH)).status, 200);
  assert.equal((await get(`/${plain.slug}/`)).status, 302, 'a trailing slash still redirects, through the router');
  assert.equal((await get('/no-such-link-here')).status, 404);
  assert.equal(await fastVisits(), before, 'none of these was answered by the fast path');
});

test('a link changed through the API is never served stale by the fast path', async () => {
  const link = await create({ url: 'https://example.com/old' });
  await get(`/${link.slug}`);
  assert.equal((await get(`/${link.slug}`)).headers.get('location'), 'https://example.com/old');
  await t.api.call('updateLink', { params: { workspaceId: t.workspaceId, linkId: link.id }, body: { url: 'https://example.com/new' } });
  assert.equal((await get(`/${link.slug}`)).headers.get('location'), 'https://example.com/new');
  await t.api.call('deleteLink', { params: { workspaceId: t.workspaceId, linkId: link.id } });
  assert.equal((await get(`/${link.slug}`)).status, 404);
});

test('a destination beyond ASCII is sent percent-encoded, on both paths, and each visit counts once', async () => {
  const link = await create({ url: 'https://example.com/日本?q=ü' });
  for (let i = 0; i < 2; i++) {
    const res = await get(`/${link.slug}`);
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), 'https://example.com/%E6%97%A5%E6%9C%AC?q=%C3%BC');
  }
  const params = { workspaceId: t.workspaceId, linkId: link.id };
  await eventually(async () => ((await t.api.call('getLink', { params })).data.clicks === 2 ? true : undefined), 5000, 'two clicks');
  // A third, doubled click would be in the log once every click is written; analytics read it there.
  await clicksWritten(server.url);
  assert.equal((await t.api.call('getLinkAnalytics', { params })).data.totalClicks, 2);
  assert.equal((await t.api.call('getLink', { params })).data.clicks, 2);
});

test('a visit with a thousand query parameters passes at most 100 on', async () => {
  const link = await create({ url: 'https://example.com/q?keep=1' });
  await get(`/${link.slug}`);
  const query = Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join('&');
  const res = await get(`/${link.slug}?keep=2&${query}`);
  assert.equal(res.status, 302);
  const location = new URL(String(res.headers.get('location')));
  assert.equal(location.searchParams.get('keep'), '1', "the destination's own parameter wins");
  assert.equal([...location.searchParams.keys()].length, 100, 'the destination\'s one and 99 of the visit\'s (the visit\'s first was keep)');
});
