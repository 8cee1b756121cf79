#!/usr/bin/env node
// What a redirect cache miss costs: links visited one after another and all at once, cold (just
// after a restart, on a database with no clicks, so the warm-up loads nothing) and then cached.
// Usage: node bench/cold-miss.mjs [postgres|embedded]   (default postgres)
import { freshPostgres, metricValue, seedLinks, startHop, USER_AGENTS } from './lib/servers.mjs';
import { fmt, writeSection } from './lib/measure.mjs';
import { cpus, loadavg } from 'node:os';

const mode = process.argv[2] ?? 'postgres';
const LINKS = 3_000;
const AT_ONCE = 1_000;

const pg = mode === 'postgres' ? freshPostgres() : null;
let hop = await startHop({ DATABASE_URL: pg ? pg.url : '' });

/** One visit's time in ms, checked to be a redirect. */
async function timed(slug) {
  const started = performance.now();
  const res = await fetch(`${hop.url}/${slug}`, { redirect: 'manual', headers: { 'user-agent': USER_AGENTS[0] } });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`/${slug}: ${res.status}`);
  return performance.now() - started;
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function oneByOne(slugs) {
  const ms = [];
  for (const s of slugs) ms.push(await timed(s));
  return { p50: pct(ms, 50), p99: pct(ms, 99) };
}

/** Every visit sent at once (one connection each): when the last and the median were answered. */
async function atOnce(slugs) {
  const started = performance.now();
  const done = await Promise.all(slugs.map(async (s) => {
    await timed(s);
    return performance.now() - started;
  }));
  return { all: Math.max(...done), p50: pct(done, 50) };
}

try {
  process.stderr.write(`seeding ${LINKS} links on ${mode}...\n`);
  const { slugs } = await seedLinks(hop.url, LINKS);
  const [seq, burst, rest] = [slugs.slice(0, AT_ONCE), slugs.slice(AT_ONCE, 2 * AT_ONCE), slugs.slice(2 * AT_ONCE)];
  hop = await hop.restart();
  // Node's and the server's JIT on other links first, so the first misses measure the miss.
  await oneByOne(rest.slice(0, 200));
  const statements = () => metricValue(hop.url, 'hop_link_lookup_queries_total');
  const before = await statements();
  const seqCold = await oneByOne(seq);
  const between = await statements();
  const cold = { seq: seqCold, burst: await atOnce(burst) };
  const burstStatements = (await statements()) - between;
  const seqStatements = between - before;
  const cached = { seq: await oneByOne(seq), burst: await atOnce(burst) };
  const lines = [
    `Database: ${mode}. ${LINKS.toLocaleString()} links, none visited before the server started; ${AT_ONCE.toLocaleString()} visited one after another and ${AT_ONCE.toLocaleString()} others all at once (a connection each), first cold, then again once cached. Load average ${loadavg().map((n) => n.toFixed(1)).join(', ')} at the end.`,
    '',
    '| | cold (a cache miss) | cached |',
    '|---|---|---|',
    `| one after another: p50 / p99 | ${fmt(cold.seq.p50, 2)} / ${fmt(cold.seq.p99, 2)} ms | ${fmt(cached.seq.p50, 2)} / ${fmt(cached.seq.p99, 2)} ms |`,
    `| all at once: all answered after (p50) | ${fmt(cold.burst.all)} ms (${fmt(cold.burst.p50)} ms) | ${fmt(cached.burst.all)} ms (${fmt(cached.burst.p50)} ms) |`,
    '',
    `A miss costs ${fmt(cold.seq.p50 - cached.seq.p50, 2)} ms more than a hit one after another (${fmt(seqStatements)} statements for ${fmt(AT_ONCE)} links); the ${fmt(AT_ONCE)} cold links at once took ${fmt(burstStatements)} statements (lookups coalesce and go many slugs to a statement). The all-at-once run is mostly the load generator's own limit: compare the two columns.${loadavg()[0] > cpus().length ? ' The load average was above the number of cores: every figure here waited for a core, a miss on PostgreSQL most (each is a round trip to another process).' : ''}`,
  ].join('\n');
  console.log(lines);
  writeSection(`Cache misses (${mode})`, lines);
} finally {
  await hop.stop();
  pg?.drop();
}
