// Two server processes on one PostgreSQL under load, as a fleet runs: both dispatch webhooks and
// run the expiry job every 100 ms, yet every event is delivered once and every link expires once;
// and a workspace's rate limit is one limit across both, not one each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBHOOK_HEADERS } from '@hop/shared';
import { createHopClient } from '@hop/shared/client';
import { ADMIN_TOKEN, client, eventually, metricSum, setPlan, unique } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { browserVisit, sleep, startLoad, stopLoads, tally } from '../helpers/load.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'hop-fault-fleet-'));
/** An address of its own: every scale-1 server of the run counts 127.0.0.1's sign-ups together. */
const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;

async function freshTeam(baseUrl: string, plan: 'free' | 'pro') {
  const email = `${unique('fleet')}@example.test`;
  const signup = await client({}, baseUrl).raw('POST', '/v1/auth/signup', {
    body: { email, password: 'correct horse battery', name: 'Fleet' }, headers: { 'x-forwarded-for': randomIp() },
  });
  assert.equal(signup.status, 201, signup.text);
  const token = (signup.body as { data: { token: string } }).data.token;
  const api = client({ token }, baseUrl);
  const { data } = await api.call('createWorkspace', { body: { name: 'Fleet', slug: unique('ws-') } });
  if (plan !== 'free') await setPlan(data.id, plan, baseUrl);
  return { token, api, workspaceId: data.id };
}

test('two processes on one PostgreSQL under load: each event delivered once, each link expired once, one shared rate limit', {
  skip: !process.env.DATABASE_URL && 'PostgreSQL only: the embedded database belongs to one process',
  timeout: 180_000,
}, async () => {
  const receiver = await startReceiver();
  const env = {
    HOP_ALLOW_PRIVATE_URLS: '1', // both dispatch
    HOP_EXPIRY_CHECK_MS: '100', // both race to announce expiries
    HOP_RATE_LIMIT_SCALE: '1', // the plans' real limits
    HOP_ADMIN_TOKEN: ADMIN_TOKEN,
    HOP_TRUST_PROXY: '127.0.0.1',
    HOP_SHORT_DOMAIN: 'fleet.test', // one short domain, so a link redirects on either process
  };
  const dirs = [dataDir(), dataDir()];
  const [a, b] = await Promise.all(dirs.map((dir) => startServer({ dataDir: dir, env })));
  try {
    const pro = await freshTeam(a.url, 'pro');
    const ws = { workspaceId: pro.workspaceId };
    const { data: hook } = await pro.api.call('createWebhook', { params: ws, body: { url: `${receiver.url}/fleet`, events: ['link.created', 'link.updated', 'link.expired'] } });
    const apis = [pro.api, createHopClient({ baseUrl: b.url, token: pro.token })];
    const { data: hot } = await pro.api.call('createLink', { params: ws, body: { url: 'https://example.com/hot' } });
    const hotPath = new URL(hot.shortUrl).pathname;

    // Load on both: visits, and links created on either process, half of them expiring in 10 s:
    // far enough ahead that a request slowed by the load still reaches the server before it, as
    // the server refuses an expiry already past.
    const visits = startLoad(20, (w) => browserVisit(`${w % 2 ? b.url : a.url}${hotPath}`));
    const created: { id: string; expires: boolean }[] = [];
    const creators = Promise.all(Array.from({ length: 6 }, async (_, w) => {
      for (let i = 0; i < 12; i++) {
        const expires = i % 2 === 0;
        const body = { url: `https://example.com/fleet/${w}/${i}`, ...(expires ? { expiresAt: new Date(Date.now() + 10_000).toISOString() } : {}) };
        const { data } = await apis[w % 2].call('createLink', { params: ws, body });
        created.push({ id: data.id, expires });
        // A change on the other process: link.updated, delivered once too.
        await apis[(w + 1) % 2].call('updateLink', { params: { ...ws, linkId: data.id }, body: { title: `updated ${w}/${i}` } });
      }
    }));
    creators.catch(() => {}); // awaited below; a failure meanwhile is reported there

    // Meanwhile, a free workspace's 20 requests a minute, asked for 60 times at once across both.
    const free = await freshTeam(b.url, 'free');
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 8000) await sleep(left + 200); // a fixed window must not end during the burst
    // What the limit has left (creating the workspace spent one of the user's, in this window or
    // the last): the burst may spend exactly that, however it splits between the processes.
    const path = `/v1/workspaces/${free.workspaceId}`;
    const probe = await createHopClient({ baseUrl: a.url, token: free.token }).raw('GET', path);
    assert.equal(probe.status, 200, probe.text);
    assert.equal(probe.headers['x-ratelimit-limit'], '20');
    const left20 = Number(probe.headers['x-ratelimit-remaining']);
    const burst = await Promise.all(Array.from({ length: 60 }, (_, i) =>
      createHopClient({ baseUrl: i % 2 ? b.url : a.url, token: free.token }).raw('GET', path)));

    await creators;
    const visited = await visits.stop();
    assert.equal(created.length, 72);
    assert.deepEqual(tally(visited), { 302: visited.length });

    const statuses = tally(burst.map((r) => r.status));
    assert.deepEqual(statuses, { 200: left20, 429: 60 - left20 }, `the ${left20} requests left of 20 are shared, not ${left20} per process`);
    assert.equal(new Set(burst.map((r) => r.headers['x-ratelimit-reset'])).size, 1, 'the probe and the burst in one minute window');
    assert.equal(burst[0].headers['x-ratelimit-reset'], probe.headers['x-ratelimit-reset']);

    // Every event once: a creation and an update per link, and an expiry per expiring link.
    const expiring = created.filter((c) => c.expires).length;
    const expected = 1 + created.length * 2 + expiring; // the hot link's creation too
    await eventually(async () => (receiver.received.length >= expected ? true : undefined), 45_000,
      `${expected} deliveries (have ${receiver.received.length})`);
    // A duplicate would be here once both expiry jobs ran ten more times (each run counts in its
    // own process, whether it ran or found the other holding the lock) and nothing of this
    // webhook is left to send. The whole run shares the database on PostgreSQL, and with it the
    // per-address limit of GET /metrics, which these servers keep at its real 30 a minute: the
    // scrapes come from an address of their own, once a second. Pending deliveries are asked of
    // this webhook, as the hop_webhook_deliveries gauge counts every other test's too.
    const scraper = { 'x-forwarded-for': randomIp() };
    const expiryRuns = () => Promise.all([a, b].map((s) => metricSum(s.url, 'hop_job_runs_total', { job: 'link-expiry' }, scraper)));
    const runsThen = await expiryRuns();
    await eventually(async () => ((await expiryRuns()).every((n, i) => n >= runsThen[i] + 10) ? true : undefined), 30_000,
      'ten expiry runs on each process', 1000);
    const pending = async () => (await pro.api.call('listDeliveries', { params: { ...ws, webhookId: hook.id }, query: { status: 'pending', limit: 1 } })).data;
    await eventually(async () => ((await pending()).length === 0 ? true : undefined), 30_000, 'no delivery of the webhook pending');
    const events = receiver.received.map((r) => {
      const body = JSON.parse(r.body) as { id: string; type: string; data: { link: { id: string } } };
      return { delivery: String(r.headers[WEBHOOK_HEADERS.deliveryId]), event: body.id, key: `${body.type} ${body.data.link.id}` };
    });
    assert.equal(events.length, expected, 'no delivery beyond the expected ones');
    assert.equal(new Set(events.map((e) => e.delivery)).size, expected, 'no delivery sent twice');
    assert.equal(new Set(events.map((e) => e.event)).size, expected, 'no event emitted twice');
    const keys = new Set(events.map((e) => e.key));
    for (const c of created) {
      assert.ok(keys.has(`link.created ${c.id}`) && keys.has(`link.updated ${c.id}`), `created and updated ${c.id}`);
      assert.equal(keys.has(`link.expired ${c.id}`), c.expires, `link.expired for ${c.id} iff it expires`);
    }
  } finally {
    await stopLoads();
    const codes = await Promise.all([a.stop(), b.stop()]);
    await receiver.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    assert.deepEqual(codes, [0, 0]);
  }
});
