// Retention by partition: the click log's monthly partitions whose every click is past the
// longest retention of any workspace are dropped whole; clicks of a kept partition beyond a plan's
// retention are cut by the query. Nothing beyond a free plan's 30 days is returned, nothing within
// it is lost. Runs on a database of its own (its own embedded directory, or a throw-away
// PostgreSQL when the suite runs on PostgreSQL), where the only workspace is on the free plan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, BROWSER_UA, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from '../helpers/throwaway-postgres.js';
import { openDatabase } from '../../server/src/db/open.js';

const DAY = 86_400_000;
const onPostgres = !!process.env.DATABASE_URL;
const partitionOf = (ms: number) => `clicks_p${new Date(ms).toISOString().slice(0, 7).replace('-', '')}`;

test('retention drops whole partitions past every plan and cuts the rest in the query', {
  skip: onPostgres ? throwawayPostgresUnavailable() : false,
  timeout: 120_000,
}, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-retention-'));
  const pg: ThrowawayPostgres | undefined = onPostgres ? await startThrowawayPostgres() : undefined;
  // One short domain across both starts (the default follows the port, which changes).
  const env = { HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_CLICK_FLUSH_MS: '100', HOP_SHORT_DOMAIN: 'retention.test', ...(pg ? { DATABASE_URL: pg.url } : {}) };
  const dbConfig = { databaseUrl: pg?.url, dataDir };
  try {
    let server = await startServer({ dataDir, env });
    const t = await team('free', server.url);
    const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/kept' } });
    assert.equal(await server.stop(), 0);

    // Clicks written long ago, straight into the log: 100 days (its month's partition wholly past
    // 30 days), 31 days (past the free plan's retention, in a partition that may be kept) and 29
    // and 0 days ago (within it).
    const now = Date.now();
    const today = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate()) + 12 * 3_600_000;
    const ages = [100, 31, 29, 0];
    const db = await openDatabase(dbConfig);
    try {
      await db.query('select hop_ensure_click_partitions($1, 6)', [new Date(today - 100 * DAY)]);
      for (const age of ages) {
        await db.query(
          `insert into clicks (link_id, workspace_id, source, clicked_at, visitor_hash, device, is_bot)
           values ($1, $2, 'link', $3, $4, 'desktop', false)`,
          [link.id, t.workspaceId, new Date(today - age * DAY), `visitor-${age}`],
        );
      }
    } finally {
      await db.close();
    }

    // At start the partition job runs: the oldest month goes.
    server = await startServer({ dataDir, env });
    const api = (await import('@hop/shared/client')).createHopClient({ baseUrl: server.url, token: t.token });
    const visited = await fetch(`${server.url}/${link.slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA.desktopChrome } });
    assert.equal(visited.status, 302);
    const params = { workspaceId: t.workspaceId, linkId: link.id };
    // 29 days ago, and today twice (written, and visited now): nothing older, whatever is asked.
    const a = await eventually(async () => {
      const { data } = await api.call('getLinkAnalytics', { params, query: { days: 730 } });
      if (data.totalClicks !== 3) throw new Error(`${data.totalClicks} clicks: ${JSON.stringify(data.timeseries?.filter((p) => p.clicks))}`);
      return data;
    }, 10_000, 'three clicks in analytics');
    assert.equal(a.start, new Date(today - 29 * DAY).toISOString().slice(0, 10));
    assert.equal(a.timeseries?.find((p) => p.date === new Date(today - 29 * DAY).toISOString().slice(0, 10))?.clicks, 1);
    const { data: range } = await api.call('getLinkAnalytics', { params, query: { start: new Date(today - 200 * DAY).toISOString().slice(0, 10), end: new Date(today - 30 * DAY).toISOString().slice(0, 10) } });
    // A range wholly past the retention is cut to its oldest day, which holds one click.
    assert.equal(range.start, new Date(today - 29 * DAY).toISOString().slice(0, 10));
    assert.equal(range.totalClicks, 1, 'nothing beyond the retention is returned');
    assert.equal(await server.stop(), 0);

    const check = await openDatabase(dbConfig);
    try {
      const parts = (await check.query<{ name: string }>(`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'clicks'::regclass`)).map((r) => r.name);
      assert.ok(!parts.includes(partitionOf(today - 100 * DAY)), `${partitionOf(today - 100 * DAY)} is dropped`);
      assert.ok(parts.includes(partitionOf(today)), 'this month stays');
      const kept = await check.query<{ visitor_hash: string }>('select visitor_hash from clicks where link_id = $1 order by clicked_at', [link.id]);
      // The 31-day-old click stays in the log while its month is kept (cut by the query, not
      // deleted); its month goes once it ends on or before the oldest retained day.
      const old = new Date(today - 31 * DAY);
      const monthKept = Date.UTC(old.getUTCFullYear(), old.getUTCMonth() + 1, 1) > today - 12 * 3_600_000 - 29 * DAY;
      const written = kept.map((r) => r.visitor_hash).filter((h) => h.startsWith('visitor-'));
      assert.deepEqual(written, [...(monthKept ? ['visitor-31'] : []), 'visitor-29', 'visitor-0']);
    } finally {
      await check.close();
    }
  } finally {
    pg?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
