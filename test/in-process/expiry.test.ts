// Time-dependent rules, in process with a manual clock (test/helpers/in-process.ts): nothing here
// sleeps. Link expiry at the redirect and in the link's status, link.expired once per expiry, and
// invites that lapse after 7 days (docs/api.md, "Links" and "Members").
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
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
