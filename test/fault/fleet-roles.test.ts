// docs/scaling.md's fleet: the API, the redirector, the dispatcher and the jobs as separate
// processes (HOP_DISABLE) on one PostgreSQL, acting as one Hop. Each process serves only its own
// part; a link made through the API redirects on the redirector (its fast path included) and
// stops redirecting to the old destination there within a second of a change; the redirector's
// clicks show in the API's analytics; the jobs process expires links and the events reach a
// receiver through the dispatcher process.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, BROWSER_UA, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

const onPostgres = !!process.env.DATABASE_URL;
const servers: Awaited<ReturnType<typeof startServer>>[] = [];
after(() => Promise.all(servers.map((s) => s.stop())));

async function part(disable: string, env: Record<string, string> = {}) {
  const server = await startServer({
    dataDir: scratchDir('hop-fleet-'),
    env: {
      HOP_ADMIN_TOKEN: ADMIN_TOKEN,
      HOP_SHORT_DOMAIN: 'fleet-roles.test', // one short domain, so links mean the same everywhere
      HOP_CLICK_FLUSH_MS: '100',
      HOP_DISABLE: disable,
      ...env,
    },
  });
  servers.push(server);
  return server;
}

test('API, redirector, dispatcher and jobs as four processes on one PostgreSQL act as one Hop', {
  skip: !onPostgres && 'PostgreSQL only: the embedded database belongs to one process',
  timeout: 90_000,
}, async () => {
  const receiver = await startReceiver();
  try {
    const [api, redirector] = await Promise.all([
      part('redirector,dispatcher,jobs', { HOP_ALLOW_PRIVATE_URLS: '1' }), // may register a loopback receiver
      part('api,dispatcher,jobs'),
      part('api,redirector,jobs', { HOP_ALLOW_PRIVATE_URLS: '1' }),
      part('api,redirector,dispatcher', { HOP_EXPIRY_CHECK_MS: '200' }),
    ]);
    const t = await team('pro', api.url);
    const ws = { workspaceId: t.workspaceId };
    await t.api.call('createWebhook', { params: ws, body: { url: `${receiver.url}/fleet`, events: ['link.created', 'link.expired'] } });
    const { data: link } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/v1' } });
    assert.equal(link.shortUrl, `https://fleet-roles.test/${link.slug}`);

    // Each process serves its own part only.
    assert.equal((await fetch(`${redirector.url}/v1/workspaces/${t.workspaceId}/links`, { headers: { authorization: `Bearer ${t.token}` } })).status, 404);
    assert.equal((await fetch(`${api.url}/${link.slug}`, { redirect: 'manual' })).status, 404);

    // The redirector serves the API's link, twice (the second from its cache, on the fast path).
    const visit = () => fetch(`${redirector.url}/${link.slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA.desktopChrome } });
    for (let i = 0; i < 2; i++) assert.equal((await visit()).headers.get('location'), 'https://example.com/v1');
    // A change through the API reaches the redirector's cache within a second.
    await t.api.call('updateLink', { params: { ...ws, linkId: link.id }, body: { url: 'https://example.com/v2' } });
    const changedAt = Date.now();
    await eventually(async () => ((await visit()).headers.get('location') === 'https://example.com/v2' ? true : undefined), 1000, 'the new destination on the redirector');
    assert.ok(Date.now() - changedAt < 1000);

    // The redirector's clicks are written by it and read by the API.
    await eventually(async () => {
      const { data } = await t.api.call('getLinkAnalytics', { params: { ...ws, linkId: link.id } });
      return data.totalClicks >= 3 ? true : undefined;
    }, 5000, 'the clicks in the API');

    // The jobs process expires a link; the dispatcher process delivers both events.
    const { data: soon } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/soon', expiresAt: new Date(Date.now() + 3000).toISOString() } });
    await eventually(async () => {
      const types = receiver.received.map((r) => JSON.parse(r.body)).filter((e) => e.data.linkId === soon.id || e.data.id === soon.id || e.data.link?.id === soon.id).map((e) => e.type);
      return types.includes('link.created') && types.includes('link.expired') ? true : undefined;
    }, 15_000, 'link.created and link.expired at the receiver');
  } finally {
    await receiver.close();
  }
});
