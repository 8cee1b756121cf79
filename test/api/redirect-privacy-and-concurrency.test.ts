// Visits at scale and in private: the click limit holds under concurrency, no raw IP is stored or
// logged anywhere, and a link change reaches another server process's cache within a second.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createHopClient } from '@hop/shared/client';
import { BROWSER_UA, eventually, team, visit } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { openDatabase } from '../../server/src/db/open.js';

test('200 concurrent visitors to a link with maxClicks 10 get exactly 10 redirects', async () => {
  const t = await team();
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/limited', maxClicks: 10 } });
  const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => visit(link.shortUrl, { ip: `8.8.4.${i % 250}` }).then((r) => r.status)));
  assert.equal(statuses.filter((s) => s === 302).length, 10);
  assert.equal(statuses.filter((s) => s === 410).length, 190);
  const params = { workspaceId: t.workspaceId, linkId: link.id };
  const { data } = await t.api.call('getLink', { params });
  assert.equal(data.clicks, 10);
  assert.equal(data.status, 'limit_reached');
  // Raising the limit reactivates the link.
  await t.api.call('updateLink', { params, body: { maxClicks: 11 } });
  assert.equal((await visit(link.shortUrl)).status, 302);
  assert.equal((await visit(link.shortUrl)).status, 410);
});

test('no table and no log line ever holds the visitor IP', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-privacy-'));
  const ip = '203.0.113.77';
  const server = await startServer({
    dataDir,
    env: { HOP_TRUST_PROXY: '127.0.0.1', HOP_LOG_LEVEL: 'trace', HOP_CLICK_FLUSH_MS: '50' },
  });
  const anon = createHopClient({ baseUrl: server.url });
  const { data: auth } = await anon.call('signup', { body: { email: `privacy-${Date.now()}@example.test`, password: 'password-123', name: 'P' } });
  const api = createHopClient({ baseUrl: server.url, token: auth.token });
  const { data: ws } = await api.call('createWorkspace', { body: { name: 'P', slug: `privacy-${Date.now()}` } });
  await createHopClient({ baseUrl: server.url }).raw('GET', '/healthz');
  const { data: link } = await api.call('createLink', { params: { workspaceId: ws.id }, body: { url: 'https://example.com/p' } });
  const path = new URL(link.shortUrl).pathname;
  for (const ua of [BROWSER_UA.desktopChrome, BROWSER_UA.googlebot]) {
    const res = await request(`${server.url}${path}?from=${ip}x`, { headers: { 'x-forwarded-for': ip, 'user-agent': ua, referer: `http://${ip}/page` } });
    assert.equal(res.statusCode, 302);
    await res.body.dump();
  }
  await eventually(async () => ((await api.call('getLink', { params: { workspaceId: ws.id, linkId: link.id } })).data.clicks === 1 ? true : undefined));
  assert.equal(await server.stop(), 0);
  assert.ok(!server.output().includes(ip), 'the server log holds the IP');

  // Read every row of every table as text, on whichever database the server used.
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  try {
    const tables = await db.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    assert.ok(tables.some((t) => t.table_name === 'clicks'));
    const [clicks] = await db.query<{ n: number }>('select count(*)::int as n from clicks where link_id = $1', [link.id]);
    assert.equal(clicks.n, 2, 'both visits, bot included, were recorded');
    for (const { table_name } of tables) {
      const hits = await db.query(`select 1 from "${table_name}" t where t::text like $1 limit 1`, [`%${ip}%`]);
      assert.equal(hits.length, 0, `table ${table_name} holds the raw IP`);
    }
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a change made through one process reaches another process within a second', { skip: !process.env.DATABASE_URL && 'PostgreSQL only (the embedded database is single-process)' }, async () => {
  // One fleet: both processes serve the same short domain from the same database.
  const env = { HOP_SHORT_DOMAIN: 'hop.test' };
  const [a, b] = await Promise.all([
    startServer({ dataDir: scratchDir('hop-a-'), env }),
    startServer({ dataDir: scratchDir('hop-b-'), env }),
  ]);
  try {
    const anon = createHopClient({ baseUrl: a.url });
    const { data: auth } = await anon.call('signup', { body: { email: `cache-${Date.now()}@example.test`, password: 'password-123', name: 'C' } });
    const apiA = createHopClient({ baseUrl: a.url, token: auth.token });
    const { data: ws } = await apiA.call('createWorkspace', { body: { name: 'C', slug: `cache-${Date.now()}` } });
    const { data: link } = await apiA.call('createLink', { params: { workspaceId: ws.id }, body: { url: 'https://example.com/old' } });
    const slug = new URL(link.shortUrl).pathname;
    const locationAt = async (base: string) => {
      const res = await request(base + slug, { headers: { 'user-agent': BROWSER_UA.desktopChrome, host: 'hop.test' } });
      await res.body.dump();
      return res.headers.location;
    };
    // Warm both caches.
    assert.equal(await locationAt(a.url), 'https://example.com/old');
    assert.equal(await locationAt(b.url), 'https://example.com/old');
    await apiA.call('updateLink', { params: { workspaceId: ws.id, linkId: link.id }, body: { url: 'https://example.com/new' } });
    // The process that made the change never serves the old destination...
    assert.equal(await locationAt(a.url), 'https://example.com/new');
    // ...and the other one stops within a second.
    const started = Date.now();
    await eventually(async () => ((await locationAt(b.url)) === 'https://example.com/new' ? true : undefined), 1000, 'process B to see the change');
    assert.ok(Date.now() - started < 1000);
  } finally {
    const [codeA, codeB] = await Promise.all([a.stop(), b.stop()]);
    assert.deepEqual([codeA, codeB], [0, 0]);
  }
});
