// link.clicked and qr.scanned are produced from the click log after the visits are written: the
// event names the destination that served the visit (a rule's, not only the link's url), a scan
// arrives as qr.scanned, and a workspace that wanted no click events when its clicks were
// produced never gets them, not even from a webhook added afterwards.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WEBHOOK_HEADERS } from '@hop/shared';
import { ADMIN_TOKEN, BROWSER_UA, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

let server: Awaited<ReturnType<typeof startServer>>;

before(async () => {
  server = await startServer({
    dataDir: scratchDir('hop-click-events-'),
    env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_CLICK_FLUSH_MS: '50' },
  });
});
after(async () => {
  assert.equal(await server.stop(), 0);
});

const visitOwn = async (url: string, ua = BROWSER_UA.desktopChrome) => {
  const res = await fetch(`${server.url}${new URL(url).pathname}`, { redirect: 'manual', headers: { 'user-agent': ua } });
  assert.equal(res.status, 302);
  return res.headers.get('location');
};

test('link.clicked names the destination that served the visit; a scan arrives as qr.scanned', async () => {
  const receiver = await startReceiver();
  try {
    const t = await team('pro', server.url);
    const params = { workspaceId: t.workspaceId };
    await t.api.call('createWebhook', { params, body: { url: `${receiver.url}/hooks`, events: ['link.clicked', 'qr.scanned'] } });
    const { data: link } = await t.api.call('createLink', {
      params, body: { url: 'https://example.com/desk', rules: [{ when: { device: 'mobile' }, url: 'https://example.com/phone' }] },
    });
    const { data: qr } = await t.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
    assert.equal(await visitOwn(link.shortUrl), 'https://example.com/desk');
    assert.equal(await visitOwn(link.shortUrl, BROWSER_UA.iphoneSafari), 'https://example.com/phone');
    await visitOwn(qr.scanUrl);
    await eventually(async () => (receiver.received.length >= 3 ? true : undefined), 20_000, 'three deliveries');
    const events = receiver.received.map((r) => JSON.parse(r.body));
    const byTarget = new Map(events.filter((e) => e.type === 'link.clicked').map((e) => [e.data.target, e]));
    assert.equal(byTarget.get('default')?.data.destination, 'https://example.com/desk');
    assert.equal(byTarget.get('rule:0')?.data.destination, 'https://example.com/phone');
    assert.equal(byTarget.get('rule:0')?.data.device, 'mobile');
    const scans = events.filter((e) => e.type === 'qr.scanned');
    assert.equal(scans.length, 1);
    assert.deepEqual([scans[0].data.qrId, scans[0].data.linkId, scans[0].data.slug], [qr.id, link.id, link.slug]);
    for (const r of receiver.received) assert.equal(r.headers[WEBHOOK_HEADERS.eventType], JSON.parse(r.body).type);
    assert.equal(new Set(events.map((e) => e.id)).size, 3, 'each visit once');
  } finally {
    await receiver.close();
  }
});

test('clicks of a workspace that wanted no click events produce none, even for a webhook added later', async () => {
  const receiver = await startReceiver();
  try {
    const quiet = await team('pro', server.url);
    const loud = await team('pro', server.url);
    await loud.api.call('createWebhook', { params: { workspaceId: loud.workspaceId }, body: { url: `${receiver.url}/loud`, events: ['link.clicked'] } });
    const { data: quietLink } = await quiet.api.call('createLink', { params: { workspaceId: quiet.workspaceId }, body: { url: 'https://example.com/quiet' } });
    const { data: loudLink } = await loud.api.call('createLink', { params: { workspaceId: loud.workspaceId }, body: { url: 'https://example.com/loud' } });
    await visitOwn(quietLink.shortUrl);
    // The loud workspace's click is produced after the quiet one's (a later id in the log): once it
    // has arrived, the producer has passed the quiet click.
    await visitOwn(loudLink.shortUrl);
    await eventually(async () => (receiver.received.some((r) => r.path === '/loud') ? true : undefined), 20_000, 'the loud click');
    await quiet.api.call('createWebhook', { params: { workspaceId: quiet.workspaceId }, body: { url: `${receiver.url}/quiet`, events: ['link.clicked'] } });
    // A click after the webhook exists is delivered: nothing before it was.
    await visitOwn(quietLink.shortUrl, BROWSER_UA.ipad);
    await eventually(async () => (receiver.received.some((r) => r.path === '/quiet') ? true : undefined), 20_000, 'the quiet click after its webhook');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const quietEvents = receiver.received.filter((r) => r.path === '/quiet').map((r) => JSON.parse(r.body));
    assert.deepEqual(quietEvents.map((e) => e.data.device), ['tablet'], 'only the click made after the webhook');
  } finally {
    await receiver.close();
  }
});
