#!/usr/bin/env node
// Analytics on a link with a million clicks (target: well under 200 ms), against the same query
// on a link with ten clicks, measured alternately in the same run. The clicks are seeded with SQL
// into the click log, in the shape the click pipeline appends, and rolled up by the server's own
// aggregation job: seconds instead of the minutes a million redirects would take.
import postgres from 'postgres';
import { freshPostgres, seedLinks, startHop } from './lib/servers.mjs';
import { fmt, load, writeSection } from './lib/measure.mjs';

const CLICKS = Number(process.argv[2] ?? 1_000_000);
const pg = freshPostgres();
const hop = await startHop({ DATABASE_URL: pg.url });
const sql = postgres(pg.url, { onnotice: () => {} });
try {
  const { token, workspaceId, slugs } = await seedLinks(hop.url, 2);
  const [big, small] = await sql`select id, slug from links where workspace_id = ${workspaceId} and slug = any(${slugs}) order by slug`;
  process.stderr.write(`seeding ${CLICKS.toLocaleString()} clicks...\n`);
  // Writers of the click log hold its gate (shared) while they append, as the pipeline does: the
  // aggregation job then never passes clicks not yet committed.
  const seed = (linkId, n) => sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock_shared(72410301)`;
    await tx.unsafe(`
    insert into clicks (link_id, workspace_id, source, clicked_at, visitor_hash, country, device, browser, os, referrer, is_bot)
    select $1, $2, 'link', now() - (random() * interval '29 days'), 'v' || (random() * 50000)::int,
      (array['US','GB','DE','FR','IN','BR','JP'])[1 + (random() * 6)::int],
      (array['desktop','mobile','tablet'])[1 + (random() * 2)::int],
      (array['Chrome','Safari','Firefox','Edge'])[1 + (random() * 3)::int],
      (array['Windows','macOS','iOS','Android','Linux'])[1 + (random() * 4)::int],
      (array['google.com','t.co','github.com',null])[1 + (random() * 3)::int], false
    from generate_series(1, $3)`, [linkId, workspaceId, n]);
  });
  await seed(big.id, CLICKS);
  await seed(small.id, 10);
  // The server's aggregation job rolls the seeded clicks up, 100,000 a run, as it would real ones.
  for (;;) {
    const [w] = await sql`select (select last_id from click_watermark) >= (select max(id) from clicks) as done`;
    if (w.done) break;
    await new Promise((r) => setTimeout(r, 500));
  }

  const request = (linkId) => ({
    url: `${hop.url}/v1/workspaces/${workspaceId}/links/${linkId}/analytics?days=30`,
    headers: { authorization: `Bearer ${token}` },
    connections: 10,
    duration: 6,
  });
  const check = await (await fetch(request(big.id).url, { headers: request(big.id).headers })).json();
  if (check.data.totalClicks !== CLICKS) throw new Error(`expected ${CLICKS} clicks, analytics says ${check.data.totalClicks}`);
  await load({ ...request(big.id), duration: 2 });
  const runs = { big: [], small: [] };
  for (let i = 0; i < 2; i++) {
    runs.small.push(await load(request(small.id)));
    runs.big.push(await load(request(big.id)));
  }
  const avg = (rs, k) => rs.reduce((s, r) => s + r[k], 0) / rs.length;
  const b = { p50: avg(runs.big, 'p50'), p99: avg(runs.big, 'p99'), rps: avg(runs.big, 'rps') };
  const s = { p50: avg(runs.small, 'p50'), p99: avg(runs.small, 'p99'), rps: avg(runs.small, 'rps') };
  const lines = [
    `PostgreSQL. \`GET .../links/{id}/analytics?days=30\` (totals, daily series, five breakdowns), 10 connections, 2 alternating rounds of 6 s.`,
    '',
    '| link | requests/s | p50 | p99 |',
    '|---|---|---|---|',
    `| 10 clicks (baseline) | ${fmt(s.rps)} | ${fmt(s.p50)} ms | ${fmt(s.p99)} ms |`,
    `| ${CLICKS.toLocaleString()} clicks | ${fmt(b.rps)} | ${fmt(b.p50)} ms | ${fmt(b.p99)} ms |`,
    `| **ratio** | **${fmt(b.rps / s.rps, 2)}** | | **p99 ${fmt(b.p99, 0)} ms** (target well under 200 ms) |`,
  ].join('\n');
  console.log(lines);
  writeSection('Analytics on a link with a million clicks', lines);
  process.exitCode = b.p99 < 200 ? 0 : 1;
} finally {
  await sql.end();
  await hop.stop();
  pg.drop();
}
