// `hop webhooks trigger <event-type> [--webhook <id>]`: a sample event of any type, marked
// "test": true, to one webhook (signed as every delivery, answered at once) or to the live tail.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { EVENT_TYPES, EventSchema, type TriggerEventResult } from '@hop/shared';
import { ADMIN_TOKEN, team, type Team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { hopSession, type HopOptions } from './run-hop.js';
import { spawnHop } from './tail-process.js';

let server: Awaited<ReturnType<typeof startServer>>;
let t: Team;
let session: ReturnType<typeof hopSession>;

before(async () => {
  server = await startServer({ dataDir: scratchDir('hop-trigger-'), env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
  t = await team('pro', server.url);
  session = hopSession();
});
after(async () => {
  assert.equal(await server.stop(), 0);
});

const env = () => ({ HOP_API_URL: server.url, HOP_API_KEY: t.token, HOP_WORKSPACE: t.workspaceId });
const withEnv = (opts: HopOptions = {}): HopOptions => ({ ...opts, env: { ...env(), ...opts.env } });

test('trigger --webhook sends a signed sample of each event type to that webhook alone', async () => {
  const receiver = await startReceiver();
  try {
    const { data: hook } = await t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url: `${receiver.url}/t`, events: ['link.created'] } });
    for (const type of EVENT_TYPES) {
      const result = await session.json<TriggerEventResult>(['webhooks', 'trigger', type, '--webhook', hook.id], withEnv());
      assert.equal(result.type, type);
      assert.equal(result.target, 'webhook');
      assert.equal(result.success, true);
      assert.equal(result.statusCode, 200);
      const r = receiver.received.at(-1)!;
      // Any type, whatever the webhook subscribes to: it is a test, and says so.
      const event = new Webhook(hook.secret).verify(r.body, r.headers as Record<string, string>) as { type: string; test: boolean; id: string };
      assert.equal(event.type, type);
      assert.equal(event.test, true);
      assert.equal(event.id, result.eventId);
      assert.ok(EventSchema.safeParse(event).success, `${type} sample matches its schema`);
    }
    assert.equal(receiver.received.length, EVENT_TYPES.length);

    // An endpoint that refuses: the answer is shown and the command fails.
    receiver.setResponder(() => 410);
    const refused = await session.run(['webhooks', 'trigger', 'link.clicked', '--webhook', hook.id], withEnv());
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /the endpoint answered 410/);
  } finally {
    await receiver.close();
  }
});

test('trigger without --webhook reaches a running tail and no webhook', async () => {
  const receiver = await startReceiver();
  const tail = spawnHop(['webhooks', 'tail', '--json'], env());
  try {
    await t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url: `${receiver.url}/none`, events: ['link.clicked'] } });
    await tail.waitForJson<{ type: string }>((l) => l.type === 'ready', 15_000, 'the ready line');
    const result = await session.json<TriggerEventResult>(['webhooks', 'trigger', 'link.clicked'], withEnv());
    assert.equal(result.target, 'tail');
    assert.equal(result.webhookId, null);
    const line = await tail.waitForJson<{ type: string; eventId: string; signature: string; event: { test: boolean; type: string } }>(
      (l) => l.type === 'event', 15_000, 'the triggered event on the tail');
    assert.equal(line.eventId, result.eventId);
    assert.equal(line.signature, 'valid');
    assert.equal(line.event.test, true);
    assert.equal(line.event.type, 'link.clicked');
    // Queued for no webhook: nothing arrives at the subscribed endpoint.
    const { data: hooks } = await t.api.call('listWebhooks', { params: { workspaceId: t.workspaceId }, query: {} });
    for (const h of hooks) {
      const { data: deliveries } = await t.api.call('listDeliveries', { params: { workspaceId: t.workspaceId, webhookId: h.id }, query: {} });
      assert.equal(deliveries.filter((d) => d.eventId === result.eventId).length, 0);
    }
  } finally {
    await tail.stop();
    await receiver.close();
  }
});

test('trigger refuses an unknown event type (exit 2) and a webhook of another workspace (exit 1)', async () => {
  const bad = await session.run(['webhooks', 'trigger', 'link.exploded'], withEnv());
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /link\.exploded/);
  const missing = await session.run(['webhooks', 'trigger', 'link.created', '--webhook', 'wh_0000000000000000000000'], withEnv());
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /not found|webhook/i);
});
