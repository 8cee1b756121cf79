// A server with no plan configuration (HOP_PLANS unset) runs self-hosted (docs/api.md, Self-hosting):
// every workspace reads `self-hosted`, with every feature and no quota, whatever plan it stores;
// the limits against abuse (per address, per account) stay on. GET /v1/server says which mode runs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, API_URL, client, eventually, randomAddress, setPlan, unique, type Team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

let server: Awaited<ReturnType<typeof startServer>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let t: Team;

before(async () => {
  receiver = await startReceiver();
  server = await startServer({
    dataDir: scratchDir('hop-self-hosted-'),
    env: {
      // Unset, as on a server nobody configured: the run sets HOP_PLANS=on for every other server.
      HOP_PLANS: '',
      // Real limits: a free workspace would be refused after 20 requests a minute.
      HOP_RATE_LIMIT_SCALE: '1',
      HOP_TRUST_PROXY: '127.0.0.1',
      HOP_ADMIN_TOKEN: ADMIN_TOKEN,
      // Webhooks to the loopback receiver, delivered by this server's own dispatcher.
      HOP_ALLOW_PRIVATE_URLS: '1',
      // A database of its own in a PostgreSQL run too: servers sharing one are a fleet and must
      // agree on the mode, or this dispatcher would deliver for the other servers' free workspaces.
      DATABASE_URL: '',
    },
  });
  t = await teamFrom(randomAddress());
});

/** A request from an address of its own (the per-address allowance is 30 a minute). */
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

/** A new account owning a new workspace, signed up from `ip`. */
async function teamFrom(ip: string): Promise<Team> {
  const email = `${unique('self')}@example.test`;
  const password = 'correct horse battery';
  const res = await client({}, server.url).raw('POST', '/v1/auth/signup', { body: { email, password, name: 'Self' }, ...from(ip) });
  assert.equal(res.status, 201, res.text);
  const { user, token } = (res.body as { data: { user: { id: string }; token: string } }).data;
  const api = client({ token }, server.url);
  const slug = unique('ws-');
  const { data: ws } = await api.call('createWorkspace', { body: { name: 'Self-hosted', slug } });
  return { userId: user.id, email, password, token, api, workspaceId: ws.id, slug };
}

after(async () => {
  await server?.stop();
  await receiver?.close();
});

test('GET /v1/server: public, says the mode and who may sign up', async () => {
  const res = await client({}, server.url).raw('GET', '/v1/server', from(randomAddress()));
  assert.equal(res.status, 200, res.text);
  const { data } = res.body as { data: { version: string; mode: string; signup: string } };
  assert.match(data.version, /^\d+\.\d+\.\d+/);
  assert.deepEqual({ mode: data.mode, signup: data.signup }, { mode: 'self-hosted', signup: 'open' });
  // The run's shared server applies the plans.
  const { data: shared } = await client({}, API_URL).call('getServer', {});
  assert.equal(shared.mode, 'plans');
  assert.equal(shared.version, data.version);
});

test('every workspace reads self-hosted, whatever plan the operator stored for plans mode', async () => {
  const ws = { workspaceId: t.workspaceId };
  assert.equal((await t.api.call('getWorkspace', { params: ws })).data.plan, 'self-hosted');
  assert.deepEqual((await t.api.call('listWorkspaces', {})).data.map((w) => w.plan), ['self-hosted']);
  // The stored plan is kept for the day plans are turned on, and changes nothing until then.
  await setPlan(t.workspaceId, 'free', server.url);
  assert.equal((await t.api.call('getWorkspace', { params: ws })).data.plan, 'self-hosted');
  const { data: usage } = await t.api.call('getUsage', { params: ws });
  assert.deepEqual(usage, {
    plan: 'self-hosted',
    limits: { requestsPerHour: null, requestsPerMinute: null, qrPerHour: null, clickRetentionDays: null },
    rateLimit: null,
    qr: { limit: null, remaining: null, resetAt: null },
  });
});

test('no request quota: 60 requests in a minute, three times what a free workspace may, and no rate-limit headers', async () => {
  const statuses: number[] = [];
  let limited = 0;
  for (let i = 0; i < 60; i++) {
    const res = await t.api.raw('GET', `/v1/workspaces/${t.workspaceId}`);
    statuses.push(res.status);
    if (res.headers['x-ratelimit-limit'] !== undefined) limited++;
  }
  assert.deepEqual(statuses, Array(60).fill(200));
  assert.equal(limited, 0, 'no X-RateLimit-* on an unlimited plan');
});

test('no plan gates: password-protected links, webhooks (delivered) and QR codes past the free quota', async () => {
  const ws = { workspaceId: t.workspaceId };
  const { data: locked } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/locked', password: 'open sesame 1' } });
  assert.equal(locked.passwordProtected, true);

  const { data: hook } = await t.api.call('createWebhook', { params: ws, body: { url: `${receiver.url}/self-hosted`, events: ['link.created'] } });
  const { data: link } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/hooked' } });
  const got = await eventually(async () => receiver.received.find((r) => r.path === '/self-hosted' && r.body.includes(link.id)), 15_000, 'the delivery');
  assert.match(got.body, /"type":"link\.created"/);
  await eventually(async () => {
    const [d] = (await t.api.call('listDeliveries', { params: { ...ws, webhookId: hook.id } })).data;
    return d?.status === 'succeeded' ? d : undefined;
  }, 15_000, 'the delivery to succeed');

  // The free plan makes 10 QR codes an hour.
  for (let i = 0; i < 12; i++) await t.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
});

test('the limits against abuse stay on: requests without a credential per address, and the account lockout', async () => {
  const ip = randomAddress();
  const anonymous = client({}, server.url);
  const first = await anonymous.raw('GET', '/v1/server', from(ip));
  assert.equal(first.headers['x-ratelimit-limit'], '30', '30 a minute per address');
  // The minute is a fixed window: the 31st request may open the next one, but no more than 60
  // pass in two windows.
  let refused;
  for (let i = 0; i < 60 && !refused; i++) {
    const res = await anonymous.raw('GET', '/v1/server', from(ip));
    if (res.status !== 200) refused = res;
  }
  assert.equal(refused?.status, 429, 'refused within two windows');

  // Ten wrong passwords lock the account, the right one included, from any address.
  for (let i = 0; i < 10; i++) {
    const res = await anonymous.raw('POST', '/v1/auth/login', { body: { email: t.email, password: `wrong ${i}` }, ...from(randomAddress()) });
    assert.equal(res.status, 401, res.text);
  }
  const right = await anonymous.raw('POST', '/v1/auth/login', { body: { email: t.email, password: t.password }, ...from(randomAddress()) });
  assert.equal(right.status, 429, right.text);
  assert.equal((right.body as { error: { code: string } }).error.code, 'RATE_LIMIT_EXCEEDED');
});
