// Below Pro, webhooks stop: nothing new is queued, what is pending ends `failed` with the error
// `plan_required`, and the owner can still list, read, disable and delete them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HopApiError } from '@hop/shared/client';
import { ADMIN_TOKEN, eventually, setPlan, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

const tierRequired = async (p: Promise<unknown>, what: string) => {
  const err = await p.then(() => assert.fail(`${what}: accepted below Pro`), (e: HopApiError) => e);
  assert.equal(err.code, 'TIER_REQUIRED', what);
  assert.equal(err.details.requiredPlan, 'pro', what);
};

test('a workspace that drops below Pro queues no deliveries, ends its pending ones, and can still disable and delete', async () => {
  // The endpoint holds every request until the plan has dropped, then fails it: the attempt in
  // flight at the downgrade comes back as a retry that must never be sent.
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let answer = 500;
  const receiver = await startReceiver({ respond: async () => (await gate, answer) });

  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer({ dataDir: scratchDir('hop-below-pro-'), env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
    const t = await team('pro', server.url);
    const ws = { workspaceId: t.workspaceId };
    const { data: hook } = await t.api.call('createWebhook', { params: ws, body: { url: `${receiver.url}/h`, events: ['link.created'] } });
    const { data: spare } = await t.api.call('createWebhook', { params: ws, body: { url: `${receiver.url}/spare`, events: ['link.deleted'] } });
    await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/before' } });
    await eventually(async () => receiver.received[0], 10_000, 'the first attempt');

    await setPlan(t.workspaceId, 'free', server.url);
    release();
    const deliveries = async () => (await t.api.call('listDeliveries', { params: { ...ws, webhookId: hook.id } })).data;
    const [ended] = await eventually(async () => {
      const list = await deliveries();
      return list.every((d) => d.status === 'failed') ? list : undefined;
    }, 10_000, 'the pending delivery to end');
    assert.equal(ended.attempts.at(-1)?.error, 'plan_required');
    assert.equal(ended.attempts.at(-1)?.statusCode, null);
    assert.equal(receiver.received.length, 1, 'nothing was sent after the downgrade');

    // New events queue nothing (the event stream, which needs no plan, is another matter).
    await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/after' } });
    assert.equal((await deliveries()).length, 1);

    // Still theirs to see, switch off and remove...
    assert.equal((await t.api.call('listWebhooks', { params: ws })).data.length, 2);
    assert.equal((await t.api.call('getWebhook', { params: { ...ws, webhookId: hook.id } })).data.isActive, true);
    const { data: off } = await t.api.call('updateWebhook', { params: { ...ws, webhookId: hook.id }, body: { isActive: false } });
    assert.equal(off.isActive, false);
    assert.equal((await t.api.call('deleteWebhook', { params: { ...ws, webhookId: spare.id } })).data.id, spare.id);
    // ...but everything that would make them fire again needs Pro.
    const id = { ...ws, webhookId: hook.id };
    await tierRequired(t.api.call('updateWebhook', { params: id, body: { isActive: true } }), 'enable by PATCH');
    await tierRequired(t.api.call('updateWebhook', { params: id, body: { description: 'x' } }), 'other changes');
    await tierRequired(t.api.call('enableWebhook', { params: id }), 'enable');
    await tierRequired(t.api.call('testWebhook', { params: id, body: {} }), 'test');
    await tierRequired(t.api.call('retryDelivery', { params: { ...id, deliveryId: ended.id } }), 'retry');
    await tierRequired(t.api.call('createWebhook', { params: ws, body: { url: `${receiver.url}/new`, events: ['link.created'] } }), 'create');

    // Back on Pro, enabled again: the next event goes out.
    answer = 200;
    await setPlan(t.workspaceId, 'pro', server.url);
    await t.api.call('enableWebhook', { params: id });
    const { data: link } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/again' } });
    const got = await eventually(async () => receiver.received.find((r) => r.body.includes(link.id)), 10_000, 'the delivery on Pro');
    assert.equal(got.path, '/h');
  } finally {
    release();
    if (server) assert.equal(await server.stop(), 0);
    await receiver.close();
  }
});
