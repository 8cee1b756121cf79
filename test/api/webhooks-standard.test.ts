// Standard Webhooks: real deliveries verified with the `standardwebhooks` npm package (the
// reference library), through a secret rotation; the secrets an integration chose and those made
// before the standard headers; and the README's receiver example run from a directory outside the
// repository, as a user would run it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { STANDARD_WEBHOOK_HEADERS, WEBHOOK_HEADERS } from '@hop/shared';
import { ADMIN_TOKEN, apiKey, eventually, team, type Team } from '../helpers/api.js';
import { freePort, startServer } from '../helpers/start-server.mjs';
import { startReceiver, type ReceivedRequest } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
let server: Awaited<ReturnType<typeof startServer>>;
let t: Team;

before(async () => {
  server = await startServer({ dataDir: scratchDir('hop-stdwh-'), env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
  t = await team('pro', server.url);
});
after(async () => {
  assert.equal(await server.stop(), 0);
});

const params = () => ({ workspaceId: t.workspaceId });
const headersOf = (r: ReceivedRequest) => r.headers as Record<string, string>;
const rejects = (secret: string, r: ReceivedRequest) =>
  assert.throws(() => new Webhook(secret).verify(r.body, headersOf(r)), WebhookVerificationError);

test('every delivery verifies with the standardwebhooks package, both secrets during a rotation grace', async () => {
  const receiver = await startReceiver();
  try {
    const { data: hook } = await t.api.call('createWebhook', { params: params(), body: { url: `${receiver.url}/std`, events: ['link.created'] } });
    assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/, 'standard base64, as the libraries decode it');
    const { data: first } = await t.api.call('createLink', { params: params(), body: { url: 'https://example.com/std-1' } });
    const r1 = await eventually(async () => receiver.received.find((r) => r.body.includes(first.id)), 10_000, 'the first delivery');
    const event = new Webhook(hook.secret).verify(r1.body, headersOf(r1)) as { type: string; data: { link: { id: string } } };
    assert.equal(event.type, 'link.created');
    assert.equal(event.data.link.id, first.id);
    // The standard headers name the same delivery and moment as Hop's own.
    assert.equal(r1.headers[STANDARD_WEBHOOK_HEADERS.id], r1.headers[WEBHOOK_HEADERS.deliveryId]);
    assert.match(String(r1.headers[STANDARD_WEBHOOK_HEADERS.id]), /^dlv_/);
    assert.equal(r1.headers[STANDARD_WEBHOOK_HEADERS.timestamp], r1.headers[WEBHOOK_HEADERS.timestamp]);
    assert.match(String(r1.headers[STANDARD_WEBHOOK_HEADERS.signature]), /^v1,[A-Za-z0-9+/]{43}=$/);
    rejects(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, r1);
    assert.throws(() => new Webhook(hook.secret).verify(r1.body.replace('std-1', 'std-2'), headersOf(r1)), WebhookVerificationError);

    const { data: rotated } = await t.api.call('rotateWebhookSecret', { params: { ...params(), webhookId: hook.id }, body: { graceSeconds: 600 } });
    assert.match(rotated.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const { data: second } = await t.api.call('createLink', { params: params(), body: { url: 'https://example.com/std-2' } });
    const r2 = await eventually(async () => receiver.received.find((r) => r.body.includes(second.id)), 10_000, 'the delivery after rotation');
    assert.equal(String(r2.headers[STANDARD_WEBHOOK_HEADERS.signature]).split(' ').length, 2, 'two space-separated signatures');
    new Webhook(rotated.secret).verify(r2.body, headersOf(r2));
    new Webhook(hook.secret).verify(r2.body, headersOf(r2));
  } finally {
    await receiver.close();
  }
});

test('a secret an integration chose verifies as a raw secret; one made before the standard, converted to standard base64', async () => {
  const receiver = await startReceiver();
  try {
    const { api } = await apiKey(t, ['webhooks:manage', 'links:write']);
    const raw = 'an-integration-chose-this-secret-0123456789';
    // A secret made before the standard headers: whsec_ + URL-safe base64 (here with both - and _).
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 251) % 256));
    const legacy = `whsec_${bytes.toString('base64url')}`;
    assert.match(legacy, /[-_]/);
    for (const [path, secret] of [['/raw', raw], ['/legacy', legacy]]) {
      const sub = await api.raw('POST', '/api/v1/webhooks', { body: { targetUrl: `${receiver.url}${path}`, events: ['link.created'], secret } });
      assert.equal(sub.status, 201);
    }
    const { data: link } = await t.api.call('createLink', { params: params(), body: { url: 'https://example.com/std-raw' } });
    const at = (path: string) => eventually(async () => receiver.received.find((r) => r.path === path && r.body.includes(link.id)), 10_000, path);
    const rawHit = await at('/raw');
    new Webhook(raw, { format: 'raw' }).verify(rawHit.body, headersOf(rawHit));
    const legacyHit = await at('/legacy');
    new Webhook(`whsec_${bytes.toString('base64')}`).verify(legacyHit.body, headersOf(legacyHit));
  } finally {
    await receiver.close();
  }
});

test("the README's receiver runs outside the repository and accepts only signed deliveries", async () => {
  // A directory of its own, with only the public package installed (linked from this checkout's
  // node_modules: nothing is fetched).
  const dir = scratchDir('hop-receiver-');
  copyFileSync(join(root, 'docs/examples/webhook-receiver.mjs'), join(dir, 'receiver.mjs'));
  for (const pkg of ['standardwebhooks', '@stablelib/base64', 'fast-sha256']) {
    mkdirSync(join(dir, 'node_modules', pkg, '..'), { recursive: true });
    symlinkSync(join(root, 'node_modules', pkg), join(dir, 'node_modules', pkg), 'dir');
  }
  const { data: hook } = await t.api.call('createWebhook', { params: params(), body: { url: 'http://127.0.0.1:9/none', events: ['link.created'] } });
  const port = await freePort();
  const child = spawn(process.execPath, ['receiver.mjs'], {
    cwd: dir, env: { PATH: process.env.PATH, HOP_WEBHOOK_SECRET: hook.secret, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  try {
    await eventually(async () => (out.includes(`listening on ${port}`) ? true : undefined), 10_000, `the receiver to listen\n${out}`);
    await t.api.call('updateWebhook', { params: { ...params(), webhookId: hook.id }, body: { url: `http://127.0.0.1:${port}/hooks` } });
    const { data: link } = await t.api.call('createLink', { params: params(), body: { url: 'https://example.com/std-example' } });
    const line = await eventually(async () => out.split('\n').find((l) => l.startsWith('link.created dlv_')), 10_000, `the receiver's line\n${out}`);
    // The answer is recorded after the receiver has the delivery (outcomes are written in batches).
    const delivery = await eventually(async () => {
      const { data: page } = await t.api.call('listDeliveries', { params: { ...params(), webhookId: hook.id }, query: {} });
      return page.find((d) => d.status !== 'pending');
    }, 10_000, 'the outcome recorded');
    assert.equal(delivery.status, 'succeeded');
    assert.ok(delivery, 'the delivery succeeded (the receiver answered 204)');
    assert.equal(line.split(' ')[1], delivery.id);
    assert.ok(link.id);
    // A forged delivery is refused.
    const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
      method: 'POST', body: '{"type":"link.created"}',
      headers: { 'webhook-id': 'dlv_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
    });
    assert.equal(forged.status, 400);
  } finally {
    child.kill('SIGTERM');
  }
});
