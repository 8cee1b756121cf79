// Two processes on one PostgreSQL: what one changes, the other applies as soon as it hears of it.
// Process B reaches the database through a proxy that can hold back what B's LISTEN connection
// receives, so a test can put a visit between a change and the moment B hears of it, as load does
// by chance; and since a process receives notifications in commit order on that one connection, a
// later change that B visibly applied proves B heard every earlier one.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHopClient, type HopClient } from '@hop/shared/client';
import { ADMIN_TOKEN, BROWSER_UA, eventually, randomAddress, unique } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startPgProxy, type PgProxy } from '../helpers/pg-proxy.js';

const skip = !process.env.DATABASE_URL && 'PostgreSQL only: the embedded database belongs to one process';
type Server = Awaited<ReturnType<typeof startServer>>;
let a: Server;
let b: Server;
let proxy: PgProxy;
const dirs: string[] = [];

before(async () => {
  if (skip) return;
  proxy = await startPgProxy(process.env.DATABASE_URL!);
  const env = {
    HOP_ADMIN_TOKEN: ADMIN_TOKEN,
    HOP_TRUST_PROXY: '127.0.0.1',
    HOP_RATE_LIMIT_SCALE: '1', // the plans' real limits, which the headers then tell apart
    HOP_SHORT_DOMAIN: 'notify.test', // one short domain, so a link redirects on either process
  };
  for (let i = 0; i < 2; i++) dirs.push(mkdtempSync(join(tmpdir(), 'hop-fleet-notify-')));
  [a, b] = await Promise.all([
    startServer({ dataDir: dirs[0], env }),
    startServer({ dataDir: dirs[1], env: { ...env, DATABASE_URL: proxy.url } }),
  ]);
});

after(async () => {
  if (skip) return;
  proxy.releaseNotifications();
  const codes = await Promise.all([a?.stop(), b?.stop()]);
  await proxy.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(codes, [0, 0]);
});

async function freshTeam() {
  const email = `${unique('notify')}@example.test`;
  const signup = await createHopClient({ baseUrl: a.url }).raw('POST', '/v1/auth/signup', {
    body: { email, password: 'correct horse battery', name: 'Notify' }, headers: { 'x-forwarded-for': randomAddress() },
  });
  assert.equal(signup.status, 201, signup.text);
  const token = (signup.body as { data: { token: string } }).data.token;
  const onA = createHopClient({ baseUrl: a.url, token });
  const { data } = await onA.call('createWorkspace', { body: { name: 'Notify', slug: unique('ws-') } });
  return { token, onA, onB: createHopClient({ baseUrl: b.url, token }), workspaceId: data.id };
}

/** Where a visit of `slug` on `server` goes: the Location, or the status when there is none. */
async function visitOn(server: Server, slug: string): Promise<string> {
  const res = await fetch(`${server.url}/${slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA.desktopChrome } });
  await res.body?.cancel();
  return res.headers.get('location') ?? String(res.status);
}

/** A change of `linkId`'s destination made on A, waited for on B: B has heard every earlier change. */
async function witness(api: HopClient, workspaceId: string, linkId: string, slug: string) {
  const url = `https://example.com/witness/${unique()}`;
  await api.call('updateLink', { params: { workspaceId, linkId }, body: { url } });
  await eventually(async () => ((await visitOn(b, slug)) === url ? true : undefined), 30_000, `B to redirect ${slug} to ${url}`);
}

test('a renamed slug is dropped on every process, even when another cached the new slug first', { skip, timeout: 90_000 }, async () => {
  const t = await freshTeam();
  const params = { workspaceId: t.workspaceId };
  const s1 = unique('old');
  const s2 = unique('new');
  const { data: link } = await t.onA.call('createLink', { params, body: { url: 'https://example.com/first', slug: s1 } });
  assert.equal(await visitOn(b, s1), 'https://example.com/first', 'B caches the link under its first slug');

  // B hears of the rename only after a visitor reached the new slug there.
  proxy.holdNotifications();
  await t.onA.call('updateLink', { params: { ...params, linkId: link.id }, body: { slug: s2 } });
  assert.equal(await visitOn(b, s2), 'https://example.com/first', 'B caches the link under its new slug too');
  proxy.releaseNotifications();
  await witness(t.onA, t.workspaceId, link.id, s2);

  assert.equal(await visitOn(b, s1), '404', 'the old slug is gone on B, not served from its cache');
  // A new link that takes the old slug gets its visitors, on every process.
  const { data: taker } = await t.onA.call('createLink', { params, body: { url: 'https://example.com/taker', slug: s1 } });
  assert.equal(await visitOn(b, s1), 'https://example.com/taker');
  assert.equal(await visitOn(a, s1), 'https://example.com/taker');
  assert.notEqual(taker.id, link.id);
});

test('a plan or limit change made on one process applies on the other at once', { skip, timeout: 90_000 }, async () => {
  const t = await freshTeam();
  const params = { workspaceId: t.workspaceId };
  const slug = unique('plan');
  const { data: link } = await t.onA.call('createLink', { params, body: { url: 'https://example.com/plan', slug } });
  assert.equal(await visitOn(b, slug), 'https://example.com/plan');
  const limitOnB = async (api: HopClient, path: string) => (await api.raw('GET', path)).headers['x-ratelimit-limit'];

  // Outside any workspace a session counts at the best plan among its workspaces: free, 20 a minute.
  assert.equal(await limitOnB(t.onB, '/v1/workspaces'), '20');
  const admin = (body: object) => createHopClient({ baseUrl: a.url }).raw('PATCH', `/v1/admin/workspaces/${t.workspaceId}`, {
    body, headers: { 'x-admin-token': ADMIN_TOKEN, 'x-forwarded-for': randomAddress() },
  });
  assert.equal((await admin({ plan: 'pro' })).status, 200);
  await witness(t.onA, t.workspaceId, link.id, slug);
  assert.equal(await limitOnB(t.onB, '/v1/workspaces'), '500', 'B counts at pro as soon as it heard of the change');

  // An enterprise workspace's own limits, as an API key bound to it counts them.
  assert.equal((await admin({ plan: 'enterprise', rateLimit: { perHour: 7000, perMinute: 700 } })).status, 200);
  const { data: key } = await t.onA.call('createApiKey', { params, body: { name: 'fleet', scopes: ['links:read'] } });
  const keyOnB = createHopClient({ baseUrl: b.url, apiKey: key.key });
  const links = `/v1/workspaces/${t.workspaceId}/links`;
  assert.equal(await limitOnB(keyOnB, links), '700');
  assert.equal((await admin({ plan: 'enterprise', rateLimit: { perHour: 9000, perMinute: 900 } })).status, 200);
  await witness(t.onA, t.workspaceId, link.id, slug);
  assert.equal(await limitOnB(keyOnB, links), '900', 'B counts at the new limits as soon as it heard of the change');
});
