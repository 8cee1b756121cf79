// What the delivery system promises beyond the happy path: the address rules, the live event
// stream with resume, the /api/v1 integration surface, a crash between change and delivery, and
// several processes dispatching each attempt once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { WEBHOOK_HEADERS } from '@hop/shared';
import { verifyWebhook } from '@hop/shared/webhook-signature';
import { HopApiError, createHopClient } from '@hop/shared/client';
import { ADMIN_TOKEN, API_URL, apiKey, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

const dataDir = () => scratchDir('hop-wh2-');

test('the shared server refuses endpoints that are not public https', async () => {
  const t = await team('pro');
  const refused = [
    'http://example.com/hook', // not https
    'https://127.0.0.1/hook', 'https://localhost/hook', 'https://10.1.2.3/hook', 'https://192.168.0.10/hook',
    'https://172.16.5.4/hook', 'https://169.254.169.254/latest/meta-data', 'https://100.64.0.1/hook',
    'https://[::1]/hook', 'https://[fd00::1]/hook', 'https://[fe80::1]/hook', 'https://224.0.0.1/hook',
    'https://[::ffff:127.0.0.1]/hook',
  ];
  for (const url of refused) {
    await assert.rejects(
      t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url, events: ['link.created'] } }),
      (e: HopApiError) => e.code === 'URL_NOT_ALLOWED' && e.statusCode === 400,
      url,
    );
  }
  await assert.rejects(
    t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url: 'not a url', events: ['link.created'] } }),
    (e: HopApiError) => e.code === 'VALIDATION_ERROR',
  );
});

/**
 * Waits until none of a webhook's deliveries is pending: each has been sent and its answer
 * recorded, and a delivery that ended is never claimed again, so a duplicate would be in by then.
 */
async function noDeliveryPending(api: ReturnType<typeof createHopClient>, workspaceId: string, webhookId: string) {
  const pending = async () => (await api.call('listDeliveries', { params: { workspaceId, webhookId }, query: { status: 'pending', limit: 1 } })).data;
  await eventually(async () => ((await pending()).length === 0 ? true : undefined), 15_000, 'no delivery pending');
}

/** Reads the stream until `until` holds; `onReady` runs once its `ready` event is in (the session is subscribed by then). */
async function readSse(url: string, headers: Record<string, string>, until: (events: { event: string; id?: string; data: any }[]) => boolean, ms = 8000, onReady?: () => void) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const events: { event: string; id?: string; data: any }[] = [];
  try {
    const res = await request(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/event-stream/);
    let buf = '';
    for await (const chunk of res.body) {
      buf += chunk.toString();
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const e: { event: string; id?: string; data: any } = { event: 'message', data: undefined };
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) e.event = line.slice(7);
          else if (line.startsWith('id: ')) e.id = line.slice(4);
          else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6));
        }
        if (e.data !== undefined) events.push(e);
        if (e.event === 'ready') onReady?.();
      }
      if (until(events)) break;
    }
    controller.abort();
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
  }
  return events;
}

test('the event stream sends a ready message with its secret, then signed events; Last-Event-ID resumes', async () => {
  const t = await team(); // no plan needed to watch
  const key = await apiKey(t, ['webhooks:manage', 'links:write']);
  const url = `${API_URL}/v1/workspaces/${t.workspaceId}/events/stream?events=link.created,link.deleted`;
  let subscribed!: () => void;
  const ready = new Promise<void>((r) => (subscribed = r));
  const streamed = readSse(url, { 'x-api-key': key.key }, (ev) => ev.filter((e) => e.event !== 'ready').length >= 2, 8000, subscribed);
  await ready;
  const { data: link } = await key.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/s' } });
  await key.api.call('updateLink', { params: { workspaceId: t.workspaceId, linkId: link.id }, body: { title: 'not streamed' } });
  await key.api.call('deleteLink', { params: { workspaceId: t.workspaceId, linkId: link.id } });
  const events = await streamed;
  assert.equal(events[0].event, 'ready');
  const secret = events[0].data.secret;
  assert.match(secret, /^whsec_/);
  const [created, deleted] = events.slice(1);
  assert.deepEqual([created.event, deleted.event], ['link.created', 'link.deleted'], 'link.updated filtered out');
  for (const e of [created, deleted]) {
    assert.deepEqual(verifyWebhook(secret, e.data.headers, e.data.body), { ok: true });
    assert.equal(JSON.parse(e.data.body).data.link.id, link.id);
  }
  // Resume after the first event: the second is replayed, with the same secret.
  const resumed = await readSse(url, { 'x-api-key': key.key, 'last-event-id': created.id! }, (ev) => ev.some((e) => e.event === 'link.deleted'));
  assert.equal(resumed[0].data.secret, secret, 'the secret survives reconnects');
  assert.equal(resumed.filter((e) => e.event === 'link.deleted').length, 1);
  assert.equal(resumed.filter((e) => e.event === 'link.created').length, 0);
  // Access: a key without webhooks:manage is refused; another workspace is 404.
  const weak = await apiKey(t, ['links:read']);
  const denied = await request(url, { headers: { 'x-api-key': weak.key } });
  assert.equal(denied.statusCode, 403);
  assert.equal((await denied.body.json() as any).error.code, 'INSUFFICIENT_SCOPE');
  const other = await team();
  const foreign = await request(`${API_URL}/v1/workspaces/${other.workspaceId}/events/stream`, { headers: { 'x-api-key': key.key } });
  assert.equal(foreign.statusCode, 404);
  await foreign.body.dump();
  const badType = await request(`${API_URL}/v1/workspaces/${t.workspaceId}/events/stream?events=link.exploded`, { headers: { 'x-api-key': key.key } });
  assert.equal(badType.statusCode, 400);
  await badType.body.dump();
});

test('the /api/v1 integration surface answers bare bodies for the credential\'s workspace', async () => {
  const t = await team('pro');
  const key = await apiKey(t, ['webhooks:manage', 'links:write', 'links:read']);
  const api = key.api;
  const me = await api.raw('GET', '/api/v1/me');
  assert.equal(me.status, 200);
  assert.equal((me.body as any).workspace.id, t.workspaceId);
  assert.equal((me.body as any).success, undefined, 'bare, not enveloped');

  const since = new Date(Date.now() - 1000).toISOString();
  const created = await api.raw('POST', '/api/v1/links', { body: { url: 'https://example.com/zap', slug: `zap-${Date.now()}` } });
  assert.equal(created.status, 201);
  assert.match((created.body as any).id, /^lnk_/);
  const polled = await api.raw('GET', `/api/v1/links?since=${encodeURIComponent(since)}`);
  assert.equal(polled.status, 200);
  assert.deepEqual((polled.body as any[]).map((l) => l.id), [(created.body as any).id]);

  // A session is not bound to a workspace.
  assert.equal((await t.api.raw('GET', '/api/v1/me')).status, 403);
});

test('/api/v1 REST-hook subscriptions deliver to their target; unsubscribe stops them', async () => {
  // A loopback receiver on a server that allows private addresses: no test sends a packet off
  // this machine (the shared server's address rules are tested above, with refusals only).
  const receiver = await startReceiver();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer({ dataDir: dataDir(), env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
    const t = await team('pro', server.url);
    const { api } = await apiKey(t, ['webhooks:manage', 'links:write', 'links:read']);
    const sub = await api.raw('POST', '/api/v1/webhooks', { body: { targetUrl: `${receiver.url}/catch/1`, events: ['link.created'] } });
    assert.equal(sub.status, 201);
    assert.deepEqual(Object.keys(sub.body as object).sort(), ['active', 'createdAt', 'events', 'id', 'secret', 'targetUrl']);
    const chosen = await api.raw('POST', '/api/v1/webhooks', { body: { targetUrl: `${receiver.url}/catch/2`, events: ['link.created'], secret: 'x'.repeat(32) } });
    assert.equal(chosen.status, 201);
    assert.equal((chosen.body as any).secret, undefined, 'a secret the platform chose is not echoed');
    const short = await api.raw('POST', '/api/v1/webhooks', { body: { targetUrl: `${receiver.url}/x`, events: ['link.created'], secret: 'short' } });
    assert.equal(short.status, 400);
    const created = await api.raw('POST', '/api/v1/links', { body: { url: 'https://example.com/hooked' } });
    const id = (created.body as any).id;
    const paths = await eventually(async () => {
      const got = receiver.received.filter((r) => r.body.includes(id)).map((r) => r.path).sort();
      return got.length === 2 ? got : undefined;
    }, 10_000, 'both subscriptions delivered');
    assert.deepEqual(paths, ['/catch/1', '/catch/2']);
    const hit = receiver.received.find((r) => r.path === '/catch/2')!;
    assert.deepEqual(verifyWebhook('x'.repeat(32), hit.headers as any, hit.body), { ok: true });
    const un = await api.raw('DELETE', `/api/v1/webhooks/${(sub.body as any).id}`);
    assert.equal(un.status, 200);
    assert.equal((await api.raw('DELETE', `/api/v1/webhooks/${(sub.body as any).id}`)).status, 404);
  } finally {
    if (server) assert.equal(await server.stop(), 0);
    await receiver.close();
  }
});

test('a process killed between the change and the delivery loses nothing: the event goes out after restart', async () => {
  const receiver = await startReceiver();
  const dir = dataDir();
  const env = { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN };
  // The first process has its dispatcher off, so the event can only wait in the outbox.
  const first = await startServer({ dataDir: dir, env: { ...env, HOP_DISABLE: 'dispatcher' } });
  const t = await team('pro', first.url);
  const { data: hook } = await t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url: `${receiver.url}/h`, events: ['link.created'] } });
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/crash' } });
  first.child.kill('SIGKILL');
  await first.exited;
  // On PostgreSQL another test's server may dispatch it meanwhile; embedded, only a restart can.
  if (!process.env.DATABASE_URL) assert.equal(receiver.received.length, 0);
  const second = await startServer({ dataDir: dir, env });
  try {
    const r = await eventually(async () => receiver.received[0], 10_000, 'the delivery after restart');
    assert.equal(JSON.parse(r.body).data.link.id, link.id);
    await noDeliveryPending(createHopClient({ baseUrl: second.url, token: t.token }), t.workspaceId, hook.id);
    assert.equal(receiver.received.length, 1, 'delivered once');
  } finally {
    assert.equal(await second.stop(), 0);
    await receiver.close();
  }
});

test('two processes on one PostgreSQL deliver every event exactly once', { skip: !process.env.DATABASE_URL && 'PostgreSQL only' }, async () => {
  const receiver = await startReceiver();
  const env = { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_SHORT_DOMAIN: 'fleet.test' };
  const [a, b] = await Promise.all([startServer({ dataDir: dataDir(), env }), startServer({ dataDir: dataDir(), env })]);
  try {
    const t = await team('pro', a.url);
    const { data: hook } = await t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url: `${receiver.url}/h`, events: ['link.created'] } });
    const apiB = createHopClient({ baseUrl: b.url, token: t.token });
    const creations = Array.from({ length: 30 }, (_, i) =>
      (i % 2 ? apiB : t.api).call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: `https://example.com/${i}` } }));
    await Promise.all(creations);
    await eventually(async () => (receiver.received.length >= 30 ? true : undefined), 15_000, '30 deliveries');
    await noDeliveryPending(t.api, t.workspaceId, hook.id);
    const ids = receiver.received.map((r) => r.headers[WEBHOOK_HEADERS.deliveryId]);
    assert.equal(ids.length, 30);
    assert.equal(new Set(ids).size, 30, 'no delivery twice');
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await receiver.close();
  }
});
