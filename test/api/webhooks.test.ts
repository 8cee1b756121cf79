// Webhooks end to end against a real server and a real receiver: events from link changes and
// clicks, signatures, the retry schedule (scaled down), exhaustion, disabling and re-enabling,
// secret rotation, the synchronous test, manual retries under the same delivery id.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WEBHOOK_HEADERS, type Webhook } from '@hop/shared';
import { verifyWebhook } from '@hop/shared/webhook-signature';
import { HopApiError } from '@hop/shared/client';
import { ADMIN_TOKEN, BROWSER_UA, eventually, team, type Team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver, throwAwayCertificate, type ReceivedRequest } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

// 2, 8, 32, 128 s become 20, 80, 320, 1280 ms.
const SCALE = 0.01;
let server: Awaited<ReturnType<typeof startServer>>;
const cert = throwAwayCertificate();

before(async () => {
  server = await startServer({
    dataDir: scratchDir('hop-webhooks-'),
    env: {
      HOP_ALLOW_PRIVATE_URLS: '1', HOP_WEBHOOK_RETRY_SCALE: String(SCALE), HOP_ADMIN_TOKEN: ADMIN_TOKEN,
      HOP_CLICK_FLUSH_MS: '50', HOP_EXPIRY_CHECK_MS: '200', NODE_EXTRA_CA_CERTS: cert.caFile,
    },
  });
});
after(async () => {
  assert.equal(await server.stop(), 0);
});

const eventsOf = (rs: ReceivedRequest[], type: string) => rs.filter((r) => r.headers[WEBHOOK_HEADERS.eventType] === type);

async function hooked(t: Team, url: string, events: Webhook['events']) {
  const { data } = await t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url, events } });
  return data;
}

test('webhooks need the pro plan', async () => {
  const t = await team('free', server.url);
  await assert.rejects(
    t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/h', events: ['link.created'] } }),
    (e: HopApiError) => e.code === 'TIER_REQUIRED' && e.details.requiredPlan === 'pro' && String(e.details.upgradeUrl).includes(t.slug),
  );
});

test('link.created, link.updated (with changes) and link.deleted arrive signed over HTTPS', async () => {
  const receiver = await startReceiver({ tls: cert });
  try {
    const t = await team('pro', server.url);
    const hook = await hooked(t, `${receiver.url}/hooks`, ['link.created', 'link.updated', 'link.deleted']);
    assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await t.api.call('listWebhooks', { params: { workspaceId: t.workspaceId } });
    assert.equal('secret' in listed.data[0], false, 'the secret is shown only at creation');

    const params = { workspaceId: t.workspaceId };
    const { data: link } = await t.api.call('createLink', { params, body: { url: 'https://example.com/one' } });
    await t.api.call('updateLink', { params: { ...params, linkId: link.id }, body: { url: 'https://example.com/two', title: 'Two' } });
    await t.api.call('deleteLink', { params: { ...params, linkId: link.id } });
    await eventually(async () => (receiver.received.length >= 3 ? true : undefined), 10_000, 'three deliveries');

    const types = receiver.received.map((r) => r.headers[WEBHOOK_HEADERS.eventType]);
    assert.deepEqual(types.sort(), ['link.created', 'link.deleted', 'link.updated']);
    for (const r of receiver.received) {
      assert.equal(r.headers['content-type'], 'application/json');
      assert.match(String(r.headers[WEBHOOK_HEADERS.signature]), /^v1=[0-9a-f]{64}$/);
      assert.deepEqual(verifyWebhook(hook.secret, r.headers, r.body), { ok: true });
      assert.deepEqual(verifyWebhook('whsec_wrong', r.headers, r.body), { ok: false, reason: 'signature_mismatch' });
      const event = JSON.parse(r.body);
      assert.match(event.id, /^evt_/);
      assert.equal(event.workspaceId, t.workspaceId);
      assert.match(String(r.headers[WEBHOOK_HEADERS.deliveryId]), /^dlv_/);
    }
    const updated = JSON.parse(eventsOf(receiver.received, 'link.updated')[0].body);
    assert.deepEqual(updated.data.changes.sort(), ['title', 'url']);
    assert.equal(updated.data.link.url, 'https://example.com/two');
    const created = JSON.parse(eventsOf(receiver.received, 'link.created')[0].body);
    for (const f of ['id', 'url', 'shortUrl', 'slug', 'createdAt']) assert.ok(f in created.data.link, f);

    // The endpoint's answer is recorded after it arrives (outcomes are written in batches): wait
    // until none is pending.
    const deliveries = await eventually(async () => {
      const { data } = await t.api.call('listDeliveries', { params: { ...params, webhookId: hook.id } });
      return data.some((d) => d.status === 'pending') ? undefined : data;
    }, 10_000, 'the three outcomes recorded');
    assert.equal(deliveries.length, 3);
    assert.ok(deliveries.every((d) => d.status === 'succeeded' && d.attempts.length === 1 && d.attempts[0].statusCode === 200));
    const ids = new Set(receiver.received.map((r) => r.headers[WEBHOOK_HEADERS.deliveryId]));
    assert.deepEqual(new Set(deliveries.map((d) => d.id)), ids);
    // Paged one by one, then a forged cursor: 400 naming query.cursor, never a 500.
    const hookParams = { ...params, webhookId: hook.id };
    const paged = await t.api.paginate('listDeliveries', { params: hookParams, query: { limit: 1 } });
    assert.deepEqual(paged.data.map((d) => d.id), deliveries.map((d) => d.id));
    const forged = Buffer.from(JSON.stringify({ t: 'yesterday', id: 'dlv_x' })).toString('base64url');
    await assert.rejects(t.api.call('listDeliveries', { params: hookParams, query: { cursor: forged } }),
      (e: HopApiError) => e.statusCode === 400 && e.code === 'VALIDATION_ERROR' && JSON.stringify(e.details).includes('query.cursor'));
  } finally {
    await receiver.close();
  }
});

test('link.clicked carries the visit without the IP; bots arrive with isBot', async () => {
  const receiver = await startReceiver();
  try {
    const t = await team('pro', server.url);
    await hooked(t, `${receiver.url}/hooks`, ['link.clicked']);
    const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/c' } });
    const path = new URL(link.shortUrl).pathname;
    for (const ua of [BROWSER_UA.iphoneSafari, BROWSER_UA.googlebot]) {
      const res = await fetch(server.url + path, { redirect: 'manual', headers: { 'user-agent': ua, referer: 'https://news.example.org/item?id=1' } });
      assert.equal(res.status, 302);
    }
    await eventually(async () => (receiver.received.length >= 2 ? true : undefined), 10_000, 'two click events');
    const events = receiver.received.map((r) => JSON.parse(r.body)).sort((a, b) => Number(a.data.isBot) - Number(b.data.isBot));
    assert.equal(events[0].type, 'link.clicked');
    assert.equal(events[0].data.linkId, link.id);
    assert.equal(events[0].data.destination, 'https://example.com/c');
    assert.equal(events[0].data.device, 'mobile');
    assert.equal(events[0].data.referrer, 'news.example.org');
    assert.equal(events[0].data.isBot, false);
    assert.equal(events[1].data.isBot, true);
    assert.ok(!receiver.received.some((r) => r.body.includes('127.0.0.1')), 'no IP in the payload');
  } finally {
    await receiver.close();
  }
});

test('a failing endpoint gets 5 attempts on the scaled schedule, then the delivery is failed; a manual retry keeps its id', async () => {
  const receiver = await startReceiver({ respond: () => 503 });
  try {
    const t = await team('pro', server.url);
    const hook = await hooked(t, `${receiver.url}/hooks`, ['link.created']);
    await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/f' } });
    const params = { workspaceId: t.workspaceId, webhookId: hook.id };
    const failed = await eventually(async () => {
      const { data } = await t.api.call('listDeliveries', { params, query: { status: 'failed' } });
      return data[0];
    }, 15_000, 'the delivery to be exhausted');
    assert.equal(failed.attempts.length, 5);
    assert.ok(failed.attempts.every((a) => a.statusCode === 503 && a.error));
    assert.equal(receiver.received.length, 5);
    const gaps = receiver.received.slice(1).map((r, i) => r.at - receiver.received[i].at);
    [20, 80, 320, 1280].forEach((ms, i) => assert.ok(gaps[i] >= ms * 0.9, `gap ${i + 1} was ${gaps[i]} ms, expected >= ${ms}`));
    assert.equal(new Set(receiver.received.map((r) => r.headers[WEBHOOK_HEADERS.deliveryId])).size, 1, 'one delivery id across attempts');
    assert.equal((await t.api.call('getWebhook', { params })).data.consecutiveFailures, 1);

    receiver.setResponder(() => 204);
    await t.api.call('retryDelivery', { params: { ...params, deliveryId: failed.id } });
    await eventually(async () => (receiver.received.length === 6 ? true : undefined), 5000, 'the manual retry');
    assert.equal(receiver.received[5].headers[WEBHOOK_HEADERS.deliveryId], failed.id);
    const settled = await eventually(async () => {
      const { data } = await t.api.call('listDeliveries', { params });
      return data[0].status === 'succeeded' ? data[0] : undefined;
    });
    assert.equal(settled.attempts.at(-1)!.statusCode, 204);
    assert.equal((await t.api.call('getWebhook', { params })).data.consecutiveFailures, 0, 'a success resets the count');
  } finally {
    await receiver.close();
  }
});

test('10 exhausted deliveries in a row disable the webhook; enable turns it back on', async () => {
  const receiver = await startReceiver({ respond: () => 500 });
  try {
    const t = await team('pro', server.url);
    const hook = await hooked(t, `${receiver.url}/hooks`, ['link.created']);
    const body = Array.from({ length: 10 }, (_, i) => ({ url: `https://example.com/${i}` }));
    await t.api.call('bulkCreateLinks', { params: { workspaceId: t.workspaceId }, body });
    const params = { workspaceId: t.workspaceId, webhookId: hook.id };
    const disabled = await eventually(async () => {
      const { data } = await t.api.call('getWebhook', { params });
      return data.isActive ? undefined : data;
    }, 20_000, 'the webhook to be disabled');
    assert.equal(disabled.consecutiveFailures, 10);
    assert.ok(disabled.disabledAt);
    assert.equal(receiver.received.length, 50);

    // While disabled, nothing is sent: an event queues its deliveries in its own transaction, and
    // none for a disabled webhook, so there is nothing to wait for.
    const queued = async () => (await t.api.call('listDeliveries', { params, query: { limit: 100 } })).data.length;
    const queuedBefore = await queued();
    await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/quiet' } });
    assert.equal(await queued(), queuedBefore);
    assert.equal(receiver.received.length, 50);

    receiver.setResponder(() => 200);
    const { data: enabled } = await t.api.call('enableWebhook', { params });
    assert.equal(enabled.isActive, true);
    assert.equal(enabled.consecutiveFailures, 0);
    await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/loud' } });
    await eventually(async () => (receiver.received.some((r) => r.body.includes('/loud')) ? true : undefined), 5000, 'delivery after enable');
  } finally {
    await receiver.close();
  }
});

test('rotate-secret: without grace only the new secret signs; with grace both do', async () => {
  const receiver = await startReceiver();
  try {
    const t = await team('pro', server.url);
    const hook = await hooked(t, `${receiver.url}/hooks`, ['link.created']);
    const params = { workspaceId: t.workspaceId, webhookId: hook.id };
    const { data: plain } = await t.api.call('rotateWebhookSecret', { params });
    assert.equal(plain.previousSecretExpiresAt, null);
    const { data: graced } = await t.api.call('rotateWebhookSecret', { params, body: { graceSeconds: 600 } });
    assert.ok(graced.previousSecretExpiresAt);
    await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/r' } });
    const r = await eventually(async () => receiver.received[0], 5000, 'a delivery');
    const sigs = String(r.headers[WEBHOOK_HEADERS.signature]).split(' ');
    assert.equal(sigs.length, 2);
    assert.deepEqual(verifyWebhook(graced.secret, r.headers, r.body), { ok: true });
    assert.deepEqual(verifyWebhook(plain.secret, r.headers, r.body), { ok: true }, 'the previous secret still verifies during the grace');
    assert.deepEqual(verifyWebhook(hook.secret, r.headers, r.body).ok, false, 'the first secret no longer does');
    await assert.rejects(t.api.call('rotateWebhookSecret', { params, body: { graceSeconds: 86_401 } }), (e: HopApiError) => e.code === 'VALIDATION_ERROR');
  } finally {
    await receiver.close();
  }
});

test('test sends a sample event at once and answers what the endpoint said', async () => {
  const receiver = await startReceiver({ respond: (r) => (r.headers[WEBHOOK_HEADERS.eventType] === 'link.expired' ? 418 : 200) });
  try {
    const t = await team('pro', server.url);
    const hook = await hooked(t, `${receiver.url}/hooks`, ['link.created']);
    const params = { workspaceId: t.workspaceId, webhookId: hook.id };
    const { data: ok } = await t.api.call('testWebhook', { params });
    assert.equal(ok.success, true);
    assert.equal(ok.statusCode, 200);
    const sent = JSON.parse(receiver.received[0].body);
    assert.equal(sent.type, 'link.created');
    assert.equal(sent.test, true);
    const { data: teapot } = await t.api.call('testWebhook', { params, body: { type: 'link.expired' } });
    assert.deepEqual([teapot.success, teapot.statusCode], [false, 418]);
    assert.match(teapot.error!, /418/);
  } finally {
    await receiver.close();
  }
});

// link.expired once per expiry: test/in-process/expiry.test.ts (a moved clock, no sleeping); its
// delivery to a receiver: event-payloads.test.ts.
test('deleting a webhook while an attempt is in flight: the attempt ends quietly, no foreign-key error', async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const receiver = await startReceiver({ respond: async () => (await held, 200) });
  try {
    const t = await team('pro', server.url);
    const params = { workspaceId: t.workspaceId };
    const hook = await hooked(t, `${receiver.url}/hooks`, ['link.created']);
    const before = server.output().length;
    await t.api.call('createLink', { params, body: { url: 'https://example.com/in-flight' } });
    await eventually(async () => receiver.received[0], 10_000, 'the attempt to arrive');
    await t.api.call('deleteWebhook', { params: { ...params, webhookId: hook.id } });
    release();
    // The dispatcher records the answer (or finds nothing to record) right after it: wait for a
    // later delivery of another webhook to know it has moved on.
    const other = await startReceiver();
    try {
      await hooked(t, `${other.url}/hooks`, ['link.created']);
      await t.api.call('createLink', { params, body: { url: 'https://example.com/after' } });
      await eventually(async () => other.received[0], 10_000, 'a later delivery');
    } finally {
      await other.close();
    }
    const logged = server.output().slice(before);
    assert.doesNotMatch(logged, /foreign key|violates|failed to record/i, logged);
  } finally {
    release();
    await receiver.close();
  }
});
