#!/usr/bin/env node
// Link creation through the API, one per request (POST /v1/workspaces/{ws}/links) and 100 per
// request (POST .../links/bulk), in links/s, against the cheapest authenticated call there is
// (GET /v1/workspaces/{ws}: token check, membership, one read) on the same server, measured
// alternately in the same run. The ratio says what creating a link costs over the API's floor;
// the links are counted in the database afterwards.
// Usage: node bench/link-creation.mjs [postgres|embedded]   (default postgres)
import postgres from 'postgres';
import { freshPostgres, seedLinks, startHop } from './lib/servers.mjs';
import { fmt, load, writeSection } from './lib/measure.mjs';

const mode = process.argv[2] ?? 'postgres';
const ROUNDS = 2;
const SECONDS = Number(process.env.HOP_BENCH_SECONDS ?? 6);
const CONNECTIONS = 20;
const BULK = 100;

const pg = mode === 'postgres' ? freshPostgres() : null;
const profile = process.env.HOP_BENCH_PROFILE;
const hop = await startHop({ DATABASE_URL: pg ? pg.url : '' }, profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []);
const sql = pg ? postgres(pg.url, { onnotice: () => {} }) : null;
try {
  const { token, workspaceId } = await seedLinks(hop.url, 0);
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  // Realistic bodies: a destination with a query, a title and a tag; the slug is generated.
  const item = (i) => ({ url: `https://example.com/blog/post-${i}?utm_source=bench`, title: `Post ${i}`, tags: ['bench'] });
  const cases = {
    get: { url: `${hop.url}/v1/workspaces/${workspaceId}`, headers: auth },
    single: { url: `${hop.url}/v1/workspaces/${workspaceId}/links`, method: 'POST', headers: auth, body: JSON.stringify(item(1)) },
    bulk: {
      url: `${hop.url}/v1/workspaces/${workspaceId}/links/bulk`, method: 'POST', headers: auth,
      body: JSON.stringify(Array.from({ length: BULK }, (_, i) => item(i))),
    },
  };
  // Links in the workspace, from the database (or the API's list on the embedded one).
  const linkCount = async () => {
    if (sql) return (await sql`select count(*)::int as n from links where workspace_id = ${workspaceId}`)[0].n;
    return null;
  };
  const check = await fetch(cases.bulk.url, { method: 'POST', headers: auth, body: cases.bulk.body });
  const checked = await check.json();
  if (!check.ok || checked.data.some((r) => !r.success)) throw new Error(`bulk create failed: ${check.status} ${JSON.stringify(checked).slice(0, 300)}`);

  await load({ ...cases.get, connections: CONNECTIONS, duration: 2 });
  await load({ ...cases.single, connections: CONNECTIONS, duration: 2 });
  await load({ ...cases.bulk, connections: 4, duration: 2 });
  const runs = { get: [], single: [], bulk: [] };
  const created = { single: 0, bulk: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    runs.get.push(await load({ ...cases.get, connections: CONNECTIONS, duration: SECONDS }));
    let n = await linkCount();
    runs.single.push(await load({ ...cases.single, connections: CONNECTIONS, duration: SECONDS }));
    let m = await linkCount();
    if (n != null) created.single += m - n;
    // A bulk request does 100 links' work: a few connections saturate the server.
    n = m;
    runs.bulk.push(await load({ ...cases.bulk, connections: 4, duration: SECONDS }));
    m = await linkCount();
    if (n != null) created.bulk += m - n;
  }
  const avg = (rs, k) => rs.reduce((s, r) => s + r[k], 0) / rs.length;
  const errors = (rs) => rs.reduce((s, r) => s + r.errors + r.non2xx3xx, 0);
  const answered = (rs) => rs.reduce((s, r) => s + r.total - r.non2xx3xx, 0);
  const g = { rps: avg(runs.get, 'rps'), p50: avg(runs.get, 'p50'), p99: avg(runs.get, 'p99') };
  const s = { rps: avg(runs.single, 'rps'), p50: avg(runs.single, 'p50'), p99: avg(runs.single, 'p99') };
  const b = { rps: avg(runs.bulk, 'rps'), p50: avg(runs.bulk, 'p50'), p99: avg(runs.bulk, 'p99') };
  const bulkLinks = b.rps * BULK;
  // In-flight requests at the end of a run are answered after autocannon stops listening, so the
  // database may hold a few more than the answers autocannon counted.
  const countNote = sql
    ? `Links in the database afterwards: ${created.single.toLocaleString()} from single requests (${answered(runs.single).toLocaleString()} answered 201), ${created.bulk.toLocaleString()} from bulk requests (${(answered(runs.bulk) * BULK).toLocaleString()} in answered requests).`
    : '';
  const lines = [
    `Database: ${mode}. ${ROUNDS} alternating rounds of ${SECONDS} s; single and GET with ${CONNECTIONS} connections, bulk (${BULK} links a request) with 4. Bodies: a URL with a query, a title, a tag; generated slugs; session token; rate limits off.`,
    '',
    '| | requests/s | links/s | p50 | p99 | errors |',
    '|---|---|---|---|---|---|',
    `| GET /v1/workspaces/{ws} (baseline) | ${fmt(g.rps)} | | ${fmt(g.p50)} ms | ${fmt(g.p99)} ms | ${errors(runs.get)} |`,
    `| POST .../links (one link) | ${fmt(s.rps)} | **${fmt(s.rps)}** | ${fmt(s.p50)} ms | ${fmt(s.p99)} ms | ${errors(runs.single)} |`,
    `| POST .../links/bulk (${BULK} links) | ${fmt(b.rps, 1)} | **${fmt(bulkLinks)}** | ${fmt(b.p50)} ms | ${fmt(b.p99)} ms | ${errors(runs.bulk)} |`,
    `| **ratio to the baseline's requests/s** | | **single ${fmt(s.rps / g.rps, 2)}, bulk ${fmt(bulkLinks / g.rps, 2)}** | | | |`,
    '',
    countNote,
  ].join('\n');
  console.log(lines);
  writeSection(`Link creation (${mode})`, lines);
  const lost = sql && (created.single < answered(runs.single) || created.bulk < answered(runs.bulk) * BULK);
  if (errors(runs.single) + errors(runs.bulk) > 0 || lost) process.exitCode = 1;
} finally {
  await sql?.end();
  await hop.stop();
  pg?.drop();
}
