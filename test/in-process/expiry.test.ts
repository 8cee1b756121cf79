// Time-dependent rules, in process with a manual clock (test/helpers/in-process.ts): nothing here
// sleeps. Link expiry at the redirect (the fast path and the router, a QR scan, the 410 page) and
// in the link's status, link.expired once per expiry, and invites that lapse after 7 days
// (docs/api.md, "Links" and "Members").
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expiryJob } from '../../server/src/jobs/expiry-job.js';
import { inProcessApi, type InProcessApi } from '../helpers/in-process.js';

const HOUR = 3_600_000;
const SHORT = 'short.test';
let api: InProcessApi;

before(async () => {
  api = await inProcessApi({ HOP_SHORT_DOMAIN: SHORT, HOP_RATE_LIMIT_SCALE: '1000' });
});
after(async () => {
  await api.close();
});

async function owner(n: number) {
  const email = `owner${n}-${Date.now()}@example.test`;
  const signup = await api.request('POST', '/v1/auth/signup', { body: { email, password: 'correct horse battery', name: 'Owner' } });
  assert.equal(signup.status, 201, JSON.stringify(signup.body));
  const token = signup.body.data.token as string;
  const ws = await api.request('POST', '/v1/workspaces', { token, body: { name: 'W', slug: `w-${n}-${Date.now()}` } });
  assert.equal(ws.status, 201, JSON.stringify(ws.body));
  return { token, workspaceId: ws.body.data.id as string, email };
}

const visit = (slug: string) => api.request('GET', `/${slug}`, { headers: { host: SHORT, 'user-agent': 'Mozilla/5.0 Chrome/126.0' } });

test('a link serves until its expiresAt, then answers 410 and reads expired; link.expired goes out once per expiry', async () => {
  const { token, workspaceId } = await owner(1);
  const expiresAt = new Date(api.clock.now().getTime() + HOUR).toISOString();
  const created = await api.request('POST', `/v1/workspaces/${workspaceId}/links`, { token, body: { url: 'https://example.com/soon', expiresAt } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const link = created.body.data;
  assert.equal((await visit(link.slug)).status, 302);

  api.clock.advance(HOUR + 1);
  assert.equal((await visit(link.slug)).status, 410);
  const read = await api.request('GET', `/v1/workspaces/${workspaceId}/links/${link.id}`, { token });
  assert.equal(read.body.data.status, 'expired');

  const job = expiryJob({ clock: api.clock, outbox: api.services.outbox });
  const expiredEvents = async () => (await api.services.db.query<{ n: number }>(
    `select count(*)::int as n from events where workspace_id = $1 and type = 'link.expired'`, [workspaceId]))[0].n;
  await api.services.db.transaction((tx) => job.run(tx));
  await api.services.db.transaction((tx) => job.run(tx));
  assert.equal(await expiredEvents(), 1, 'once per expiry, however often the job runs');

  // A new expiry is a new chance to expire: served again now, expired (and announced) later.
  const later = new Date(api.clock.now().getTime() + HOUR).toISOString();
  const updated = await api.request('PATCH', `/v1/workspaces/${workspaceId}/links/${link.id}`, { token, body: { expiresAt: later } });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  assert.equal((await visit(link.slug)).status, 302);
  api.clock.advance(HOUR + 1);
  await api.services.db.transaction((tx) => job.run(tx));
  assert.equal(await expiredEvents(), 2);
  assert.equal((await visit(link.slug)).status, 410);
});

test('an expiresAt in the past (by the server clock) is refused', async () => {
  const { token, workspaceId } = await owner(2);
  const past = new Date(api.clock.now().getTime() - 1000).toISOString();
  const res = await api.request('POST', `/v1/workspaces/${workspaceId}/links`, { token, body: { url: 'https://example.com/p', expiresAt: past } });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.code, 'VALIDATION_ERROR');
});

test('an invite lapses after 7 days: accepting it then answers 410 GONE', async () => {
  const { token, workspaceId, email: ownerEmail } = await owner(3);
  const email = `invitee-${Date.now()}@example.test`;
  const invited = await api.request('POST', `/v1/workspaces/${workspaceId}/invites`, { token, body: { email, role: 'viewer' } });
  assert.equal(invited.status, 201, JSON.stringify(invited.body));
  api.clock.advance(7 * 24 * HOUR + 1);
  const signup = await api.request('POST', '/v1/auth/signup', { body: { email, password: 'correct horse battery', name: 'Invitee' } });
  const accepted = await api.request('POST', `/v1/invites/${invited.body.data.token}/accept`, { token: signup.body.data.token });
  assert.equal(accepted.status, 410, JSON.stringify(accepted.body));
  assert.equal(accepted.body.error.code, 'GONE');
  const { token: fresh } = (await api.request('POST', '/v1/auth/login', { body: { email: ownerEmail, password: 'correct horse battery' } })).body.data;
  const pending = await api.request('GET', `/v1/workspaces/${workspaceId}/invites`, { token: fresh });
  assert.deepEqual(pending.body.data, [], 'a lapsed invite is no longer pending');
});

/** A visit over real HTTP, so the redirector's fast path in front of the router sees it. */
function visitOverHttp(port: number, path: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: SHORT, 'user-agent': 'Mozilla/5.0 Chrome/126.0', accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a cached link answers 410 the moment it expires, fast path or not, and so does its QR scan, on a secured page', async () => {
  const { token, workspaceId } = await owner(4);
  const expiresAt = new Date(api.clock.now().getTime() + HOUR).toISOString();
  const created = await api.request('POST', `/v1/workspaces/${workspaceId}/links`, { token, body: { url: 'https://example.com/cached', expiresAt } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const link = created.body.data;
  const qr = await api.request('POST', `/v1/links/${link.id}/qr`, { token, body: {} });
  assert.equal(qr.status, 201, JSON.stringify(qr.body));
  const scanPath = new URL(qr.body.data.scanUrl).pathname;

  await api.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = api.app.server.address() as AddressInfo;
  for (let i = 0; i < 2; i++) assert.equal((await visitOverHttp(port, `/${link.slug}`)).status, 302, 'served, and in the cache');
  assert.equal((await visit(scanPath.slice(1))).status, 302);

  api.clock.advance(HOUR + 1);
  const servedFast = api.services.fastRedirect.served;
  const gone = await visitOverHttp(port, `/${link.slug}`);
  assert.equal(gone.status, 410, 'expired at once, though cached');
  assert.equal(api.services.fastRedirect.served, servedFast, 'the fast path leaves an expired link to the router');
  // The 410 page carries the headers of every HTML page (test/api/security-headers.test.ts).
  assert.match(String(gone.headers['content-type']), /^text\/html/);
  assert.match(String(gone.headers['content-security-policy']), /default-src 'none'/);
  assert.match(String(gone.headers['content-security-policy']), /frame-ancestors 'none'/);
  assert.equal(gone.headers['x-frame-options'], 'DENY');
  assert.equal(gone.headers['x-content-type-options'], 'nosniff');
  assert.equal(gone.headers['referrer-policy'], 'no-referrer');
  assert.equal((await visit(scanPath.slice(1))).status, 410, 'the QR scan too');
});
