#!/usr/bin/env node
// A long PostgreSQL outage at full load: redirects run flat out on a PostgreSQL cluster of the
// benchmark's own, which is stopped for five minutes (HOP_BENCH_OUTAGE_SECONDS) in the middle of
// the run and then started again while the load goes on. With the default limits (200,000 visits
// in memory, 1 GiB of spool), every redirect answered must end up as one row in `clicks`: the
// visits past the memory bound go to the spool file and are replayed once the database is back.
// Usage: node bench/click-outage.mjs   (HOP_BENCH_OUTAGE_SECONDS=30 shortens it while developing)
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import postgres from 'postgres';
import { ADMIN_TOKEN, METRICS_TOKEN, metricValue, randomVisits, seedLinks } from './lib/servers.mjs';
import { startServer } from '../test/helpers/start-server.mjs';
import { fmt, load, writeSection } from './lib/measure.mjs';

const OUTAGE_SECONDS = Number(process.env.HOP_BENCH_OUTAGE_SECONDS ?? 300);
const BEFORE_SECONDS = 20;
const AFTER_SECONDS = 40;
const LINKS = 1_000;
const CONNECTIONS = 50;

const { startThrowawayPostgres } = await tsImport('../test/helpers/throwaway-postgres.ts', import.meta.url);
const pg = await startThrowawayPostgres();
const dataDir = mkdtempSync(join(tmpdir(), 'hop-bench-outage-'));
const hop = await startServer({
  dataDir,
  env: { DATABASE_URL: pg.url, HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_METRICS_TOKEN: METRICS_TOKEN, HOP_LOG_LEVEL: 'fatal', HOP_RATE_LIMITS: 'off' },
  timeoutMs: 120_000,
});
const spoolDir = join(dataDir, 'click-spool');

const spoolBytes = () => {
  try {
    return readdirSync(spoolDir).reduce((sum, f) => sum + statSync(join(spoolDir, f)).size, 0);
  } catch {
    return 0;
  }
};

const metric = (name) => metricValue(hop.url, name);

/** Rows in the clicks table (null while the database is down). */
async function rows(sql) {
  try {
    const [r] = await sql`select count(*)::int as n from clicks`;
    return r.n;
  } catch {
    return null;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let sql;
try {
  process.stderr.write(`seeding ${LINKS} links...\n`);
  const { slugs } = await seedLinks(hop.url, LINKS);
  const visits = (duration) => ({
    url: hop.url,
    duration,
    connections: CONNECTIONS,
    requests: randomVisits(slugs),
  });
  // Every link visited once: its row and the day's salt are cached, so redirects need no database.
  await load(visits(3));
  sql = postgres(pg.url, { onnotice: () => {}, max: 1, connect_timeout: 2 });
  const settle = async () => {
    let last = -1;
    for (;;) {
      const n = await rows(sql);
      if (n === last && (await metric('hop_click_buffer_depth')) === 0 && spoolBytes() === 0) return n;
      last = n;
      await sleep(2_000);
    }
  };
  const before = await settle();

  const total = BEFORE_SECONDS + OUTAGE_SECONDS + AFTER_SECONDS;
  process.stderr.write(`full load for ${total} s; PostgreSQL down from ${BEFORE_SECONDS} s to ${BEFORE_SECONDS + OUTAGE_SECONDS} s...\n`);
  const samples = [];
  const started = Date.now();
  const sampler = setInterval(async () => {
    samples.push({ t: (Date.now() - started) / 1000, spool: spoolBytes(), depth: await metric('hop_click_buffer_depth') });
  }, 1_000);
  let restartedAt = 0;
  const outage = (async () => {
    await sleep(BEFORE_SECONDS * 1000);
    await sql.end();
    pg.stop('fast');
    await sleep(OUTAGE_SECONDS * 1000);
    pg.start();
    restartedAt = Date.now();
    sql = postgres(pg.url, { onnotice: () => {}, max: 1 });
  })();
  const run = await load(visits(total));
  await outage;
  const loadEnded = Date.now();
  const after = await settle();
  const drainedAt = Date.now();
  clearInterval(sampler);

  const redirects = run.total - run.non2xx3xx;
  const written = after - before;
  const missing = Math.max(0, redirects - written);
  // More rows than answers: requests answered (and recorded) after autocannon stopped, or after
  // it gave up waiting on them (its timeouts): at most one per connection, plus one per timeout.
  const inFlight = written - redirects;
  const peak = (k) => Math.max(0, ...samples.map((s) => s[k] ?? 0));
  const lines = [
    `A cluster of the benchmark's own; default limits (200,000 visits in memory, 1 GiB of spool). ${LINKS.toLocaleString()} links, ${CONNECTIONS} connections at full load for ${total} s; PostgreSQL stopped after ${BEFORE_SECONDS} s for **${fmt(OUTAGE_SECONDS)} s**, then started while the load went on for ${AFTER_SECONDS} s more. Load average ${loadavg().map((l) => l.toFixed(1)).join(', ')} at the end.`,
    '',
    '| | |',
    '|---|---|',
    `| redirects answered (autocannon) | ${redirects.toLocaleString()} (${fmt(run.rps)}/s, p99 ${fmt(run.p99)} ms, ${run.errors + run.non2xx3xx} errors) |`,
    `| rows written to \`clicks\` | ${written.toLocaleString()} |`,
    `| **missing** | **${missing}**${inFlight > 0 ? ` (${inFlight} more rows than answers: requests in flight when autocannon stopped or timed out)` : ''} |`,
    `| deepest in-memory buffer | ${peak('depth').toLocaleString()} visits |`,
    `| largest spool on disk | ${fmt(peak('spool') / 1024 / 1024)} MiB |`,
    `| all written after the database came back in | ${fmt((drainedAt - restartedAt) / 1000)} s (${fmt((drainedAt - loadEnded) / 1000)} s after the load ended) |`,
  ].join('\n');
  console.log(lines);
  writeSection('Click recording through a long PostgreSQL outage', lines);
  if (missing > 0 || inFlight > CONNECTIONS + run.errors) {
    console.error(`FAILED: ${missing} clicks missing, ${inFlight} extra rows`);
    process.exitCode = 1;
  }
} finally {
  await sql?.end().catch(() => {});
  await hop.stop();
  pg.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
