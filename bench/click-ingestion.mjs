#!/usr/bin/env node
// Click ingestion: redirects at full load for 60 s on PostgreSQL with click recording on, then
// every click is counted in the database, and the Hop process's memory is sampled throughout.
// The throughput is compared with a bare Fastify answering a fixed 302 (measured before and
// after the Hop run, in the same run); memory is compared with the same process at idle (after
// seeding and warm-up, just before the load starts).
// Usage: node bench/click-ingestion.mjs   (HOP_BENCH_SECONDS=10 shortens the run while developing)
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { freshPostgres, metricValue, randomVisits, seedLinks, startBaseline, startHop } from './lib/servers.mjs';
import { fmt, load, writeSection } from './lib/measure.mjs';

const SECONDS = Number(process.env.HOP_BENCH_SECONDS ?? 60);
const BASELINE_SECONDS = Math.max(3, Math.round(SECONDS / 6));
const LINKS = 1_000;
const CONNECTIONS = 50;

const pg = freshPostgres();
// HOP_BENCH_PROFILE=<dir> writes a CPU profile of the Hop server there (node --cpu-prof).
const profile = process.env.HOP_BENCH_PROFILE;
const hop = await startHop({ DATABASE_URL: pg.url }, profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []);
const baseline = await startBaseline();
const sql = postgres(pg.url, { onnotice: () => {} });

/** VmRSS and VmHWM (peak) of the Hop server process, in MiB. */
function memory() {
  const status = readFileSync(`/proc/${hop.child.pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** Visits waiting to be written, from GET /metrics (null if the gauge is not there). */
const bufferDepth = () => metricValue(hop.url, 'hop_click_buffer_depth');

async function counts() {
  const [r] = await sql`select count(*)::int as rows, count(*) filter (where not is_bot)::int as humans,
    (select coalesce(sum(clicks), 0)::int from link_counters) as counted,
    (select counted_id from click_watermark) >= coalesce(max(id), 0) as all_counted from clicks`;
  return r;
}

/**
 * Unchanged this long, with every click counted (the counters' watermark at the last click), counts
 * as settled: longer than the aggregation job's wait on PostgreSQL (it rolls up once 200,000 clicks
 * wait or 10 s after its last run, and under load counts every few runs).
 */
const SETTLED_MS = 12_000;

/** Waits until the click buffer is empty and the clicks table has stopped growing. */
async function settle(timeoutMs = 120_000) {
  const started = Date.now();
  let last = await counts();
  let stableSince = Date.now();
  while (Date.now() - started < timeoutMs) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await counts();
    const depth = await bufferDepth();
    if (now.rows !== last.rows || now.counted !== last.counted || (depth ?? 0) > 0) {
      last = now;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= SETTLED_MS && now.all_counted) {
      return { ...last, drainMs: stableSince - started };
    }
  }
  throw new Error(`clicks still being written after ${timeoutMs / 1000} s`);
}

try {
  process.stderr.write(`seeding ${LINKS} links on PostgreSQL...\n`);
  const { slugs } = await seedLinks(hop.url, LINKS);
  const visits = (url, duration) => ({
    url,
    duration,
    connections: CONNECTIONS,
    requests: randomVisits(slugs),
  });
  await load(visits(hop.url, 3));
  await load(visits(baseline.url, 2));
  const before = await settle();
  const idle = memory();

  const base1 = await load(visits(baseline.url, BASELINE_SECONDS));
  process.stderr.write(`Hop under load for ${SECONDS} s...\n`);
  const samples = [];
  const depths = [];
  const sampler = setInterval(async () => {
    samples.push({ t: Date.now(), ...memory() });
    const d = await bufferDepth();
    if (d != null) depths.push({ t: Date.now(), d });
  }, 500);
  const started = Date.now();
  const run = await load(visits(hop.url, SECONDS));
  clearInterval(sampler);
  const after = await settle();
  const end = memory();
  const base2 = await load(visits(baseline.url, BASELINE_SECONDS));

  // Every 302 autocannon received was recorded (the redirect enqueues before it answers). The
  // database may hold a few more: requests in flight when autocannon stopped were answered (and
  // recorded) after it closed its connections, at most one per connection.
  const redirects = run.total - run.non2xx3xx;
  const rows = after.rows - before.rows;
  const humans = after.humans - before.humans;
  const counted = after.counted - before.counted;
  const missing = Math.max(0, redirects - rows);
  const inFlight = rows - redirects;
  const consistent = counted === humans;
  const peakRss = Math.max(...samples.map((s) => s.rss), end.rss);
  // Bounded memory: the peak of each quarter of the run stops climbing.
  const byQuarter = (xs, k) => [0, 1, 2, 3].map((q) => Math.max(0, ...xs
    .filter((s) => s.t >= started + (q * SECONDS * 1000) / 4 && s.t < started + ((q + 1) * SECONDS * 1000) / 4)
    .map((s) => s[k])));
  const quarters = byQuarter(samples, 'rss');
  const depthQuarters = byQuarter(depths, 'd');
  const b = { rps: (base1.rps + base2.rps) / 2, p99: (base1.p99 + base2.p99) / 2 };
  const clicksPerSecond = rows / SECONDS;

  const lines = [
    `PostgreSQL, click recording on. ${LINKS.toLocaleString()} links, ${CONNECTIONS} connections for ${SECONDS} s, random slugs, six user agents (one a bot: stored, not counted), five referrers. The baseline ran ${BASELINE_SECONDS} s before and after the Hop run.`,
    '',
    '| | requests/s | p99 latency | errors |',
    '|---|---|---|---|',
    `| bare Fastify fixed 302 (baseline) | ${fmt(b.rps)} | ${fmt(b.p99)} ms | |`,
    `| Hop redirect, recording every click | ${fmt(run.rps)} | ${fmt(run.p99)} ms | ${run.errors + run.non2xx3xx} |`,
    `| **ratio** | **${fmt(run.rps / b.rps, 2)}** | **${fmt(run.p99 / Math.max(b.p99, 1), 2)}x** | |`,
    '',
    '| clicks | |',
    '|---|---|',
    `| redirects answered (autocannon) | ${redirects.toLocaleString()} |`,
    `| rows written to \`clicks\` | ${rows.toLocaleString()} (${humans.toLocaleString()} human, ${(rows - humans).toLocaleString()} bot) |`,
    `| missing | **${missing}**${inFlight > 0 ? ` (${inFlight} more rows than answers: requests in flight when autocannon stopped)` : ''} |`,
    `| added to \`links.clicks\` | ${counted.toLocaleString()} (${consistent ? 'equal to the human rows' : `**${counted - humans} off the human rows**`}) |`,
    `| clicks/s written, sustained | **${fmt(clicksPerSecond)}** |`,
    `| deepest click buffer in each quarter of the run | ${depths.length ? depthQuarters.map((d) => d.toLocaleString()).join(', ') : 'n/a (no hop_click_buffer_depth in /metrics)'} visits |`,
    `| written and counted (link_counters) after the load in | ${fmt(after.drainMs / 1000, 1)} s |`,
    '',
    '| Hop process memory | MiB |',
    '|---|---|',
    `| RSS at idle, before the load (baseline) | ${fmt(idle.rss)} |`,
    `| peak RSS sampled during the run (every 0.5 s) | ${fmt(peakRss)} |`,
    `| peak RSS in each quarter of the run | ${quarters.map((q) => fmt(q)).join(', ')} |`,
    `| VmHWM (the kernel's high-water mark) at the end | ${fmt(end.hwm)} |`,
    `| **peak / idle** | **${fmt(peakRss / idle.rss, 2)}x** |`,
  ].join('\n');
  console.log(lines);
  writeSection('Click ingestion (PostgreSQL)', lines);
  if (missing > 0 || !consistent || inFlight > CONNECTIONS) {
    console.error(`FAILED: ${missing} clicks missing, ${counted - humans} counted off, ${inFlight} extra rows`);
    process.exitCode = 1;
  }
} finally {
  await sql.end();
  await baseline.stop();
  await hop.stop();
  pg.drop();
}
