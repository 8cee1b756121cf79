// Fair delivery: an endpoint that never answers holds at most 4 of a dispatcher's slots, and
// another workspace's events go out meanwhile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

test('an endpoint that hangs delays only its own deliveries', async () => {
  let release!: () => void;
  const hung = new Promise<void>((r) => (release = r));
  // Both on loopback, on different ports: two endpoint hosts (host:port).
  const hanging = await startReceiver({ respond: async () => (await hung, 200) });
  const normal = await startReceiver();

  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer({ dataDir: scratchDir('hop-fair-'), env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
    const slow = await team('pro', server.url);
    const other = await team('pro', server.url);
    // Two webhooks on the hanging host (one host, whatever the path), 20 events each: 40 deliveries.
    for (const path of ['/a', '/b']) {
      await slow.api.call('createWebhook', { params: { workspaceId: slow.workspaceId }, body: { url: `${hanging.url}${path}`, events: ['link.created'] } });
    }
    await other.api.call('createWebhook', { params: { workspaceId: other.workspaceId }, body: { url: `${normal.url}/h`, events: ['link.created'] } });
    await slow.api.call('bulkCreateLinks', {
      params: { workspaceId: slow.workspaceId },
      body: Array.from({ length: 20 }, (_, i) => ({ url: `https://example.com/slow/${i}` })),
    });
    await eventually(async () => (hanging.received.length >= 4 ? true : undefined), 10_000, 'the hanging endpoint to be busy');

    const { data: link } = await other.api.call('createLink', { params: { workspaceId: other.workspaceId }, body: { url: 'https://example.com/other' } });
    const delivered = await eventually(async () => normal.received.find((r) => r.body.includes(link.id)), 10_000, "the other workspace's delivery");
    assert.equal(JSON.parse(delivered.body).type, 'link.created');
    // Still hanging: the other delivery did not wait for a slot to free up. One process (embedded)
    // holds at most 4 attempts on that host; on PostgreSQL other test servers may dispatch too.
    if (!process.env.DATABASE_URL) assert.equal(hanging.received.length, 4, 'at most 4 in flight to one host');
  } finally {
    release();
    if (server) assert.equal(await server.stop(), 0);
    await Promise.all([hanging.close(), normal.close()]);
  }
});
