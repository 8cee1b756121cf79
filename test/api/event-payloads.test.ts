// Every event the server emits, and every sample a webhook's `test` sends, matches its schema in
// the shared contract (docs/api.md, "Events"): the schema is what receivers, the CLI and the
// OpenAPI document rely on, so a field the emitter adds without the schema fails here.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES, EventSchema, WEBHOOK_HEADERS, type EventType } from '@hop/shared';
import { ADMIN_TOKEN, BROWSER_UA, eventually, team, unique } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

let server: Awaited<ReturnType<typeof startServer>>;

before(async () => {
  server = await startServer({
    dataDir: scratchDir('hop-events-'),
    env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_CLICK_FLUSH_MS: '50', HOP_EXPIRY_CHECK_MS: '200' },
  });
});
after(async () => {
  assert.equal(await server.stop(), 0);
});

/** Parses a delivered body with the contract's schema; keys the schema does not know fail too. */
function conforms(body: string) {
  const event: unknown = JSON.parse(body);
  const parsed = EventSchema.safeParse(event);
  assert.ok(parsed.success, `${body.slice(0, 300)}\n${parsed.error?.message}`);
  // The schemas are lenient objects (receivers keep working when a field is added), so unknown
  // keys are stripped, not refused: the parsed event equals the delivered one only if none were.
  assert.deepEqual(parsed.data, event, 'the event holds no field its schema does not declare');
  return parsed.data;
}

const visitOwn = (url: string, headers: Record<string, string> = {}) => {
  const u = new URL(url);
  return fetch(`${server.url}${u.pathname}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA.desktopChrome, ...headers } });
};

test('every event emitted matches its schema in the shared contract', async () => {
  const receiver = await startReceiver();
  try {
    const t = await team('pro', server.url);
    const params = { workspaceId: t.workspaceId };
    await t.api.call('createWebhook', { params, body: { url: `${receiver.url}/hooks`, events: [...EVENT_TYPES] } });

    const { data: link } = await t.api.call('createLink', { params, body: { url: 'https://example.com/events', title: 'Events', tags: ['a'] } });
    // Far enough ahead that a loaded machine still answers before it passes (the server refuses an
    // expiry in the past); the wait for link.expired below allows for it.
    await t.api.call('createLink', { params, body: { url: 'https://example.com/soon', expiresAt: new Date(Date.now() + 5_000).toISOString() } });
    await t.api.call('bulkCreateLinks', { params, body: [{ url: 'https://example.com/bulk-1' }, { url: 'https://example.com/bulk-2', slug: unique('bulk') }] });
    await t.api.call('updateLink', { params: { ...params, linkId: link.id }, body: { url: 'https://example.com/changed', maxClicks: 100 } });
    const { data: qr } = await t.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
    assert.equal((await visitOwn(link.shortUrl, { 'x-forwarded-for': '81.2.69.142', referer: 'https://t.co/x' })).status, 302);
    // The link has a click limit now: a bot gets a page without the destination (and its event).
    assert.equal((await visitOwn(link.shortUrl, { 'user-agent': BROWSER_UA.googlebot })).status, 200);
    assert.equal((await visitOwn(qr.scanUrl)).status, 302);
    const { data: gone } = await t.api.call('createLink', { params, body: { url: 'https://example.com/gone' } });
    await t.api.call('deleteLink', { params: { ...params, linkId: gone.id } });
    // link.password_locked takes 50 slow password checks: its emitted events are checked against
    // this schema in server/src/domain/auth/password-checks.test.ts ("the cap of a link").
    const wanted: EventType[] = ['link.created', 'link.updated', 'link.deleted', 'link.expired', 'link.clicked', 'qr.scanned'];
    const typesSeen = () => new Set(receiver.received.map((r) => r.headers[WEBHOOK_HEADERS.eventType] as EventType));
    const seen = await eventually(async () => {
      const types = typesSeen();
      return wanted.every((w) => types.has(w)) ? types : undefined;
    }, 60_000, 'one event of each type').catch((err: Error) => {
      throw new Error(`${err.message}; received only ${[...typesSeen()].join(', ')}`);
    });
    assert.deepEqual([...seen].sort(), [...wanted].sort());
    for (const r of receiver.received) {
      const event = conforms(r.body);
      assert.equal(event.type, r.headers[WEBHOOK_HEADERS.eventType]);
      assert.equal(event.workspaceId, t.workspaceId);
      assert.equal(event.test, undefined, 'a real event is not marked as a test');
    }
    const scan = receiver.received.map((r) => JSON.parse(r.body)).find((e) => e.type === 'qr.scanned');
    assert.equal(scan.data.qrId, qr.id);
  } finally {
    await receiver.close();
  }
});

test('the sample event of each type sent by `test` matches its schema too', async () => {
  const receiver = await startReceiver();
  try {
    const t = await team('pro', server.url);
    const { data: hook } = await t.api.call('createWebhook', {
      params: { workspaceId: t.workspaceId }, body: { url: `${receiver.url}/hooks`, events: ['link.created'] },
    });
    for (const type of EVENT_TYPES) {
      const { data } = await t.api.call('testWebhook', { params: { workspaceId: t.workspaceId, webhookId: hook.id }, body: { type } });
      assert.equal(data.success, true, `${type}: ${data.error}`);
    }
    assert.equal(receiver.received.length, EVENT_TYPES.length);
    for (const [i, r] of receiver.received.entries()) {
      const event = conforms(r.body);
      assert.equal(event.type, EVENT_TYPES[i]);
      assert.equal(event.test, true);
    }
  } finally {
    await receiver.close();
  }
});
