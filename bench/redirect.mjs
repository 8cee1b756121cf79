#!/usr/bin/env node
// Redirect throughput: Hop (click recording on, 10k links, realistic user agents and referrers)
// against a bare Fastify answering a fixed 302, measured alternately in the same run.
// Usage: node bench/redirect.mjs [postgres|embedded]   (default postgres)
import { fastPathVisits, freshPostgres, metricValue, randomVisits, seedLinks, startBaseline, startHop, USER_AGENTS } from './lib/servers.mjs';
import { fmt, load, writeSection } from './lib/measure.mjs';
import { cpuMeter } from './lib/cpu.mjs';
import { loadavg } from 'node:os';

const mode = process.argv[2] ?? 'postgres';
const loadAverage = () => loadavg().map((n) => n.toFixed(1)).join(', ');

/**
 * Waits until every visit of the round is written (nothing in the click buffer or the spool), and
 * returns how long that took after the load ended: the server's CPU is counted until then, so work
 * left over from the round (the embedded database's worker falls behind at full load, and writes
 * the rest from the buffer afterwards) still counts per request.
 */
async function writtenAfter(url) {
  const start = Date.now();
  while (((await metricValue(url, 'hop_click_buffer_depth')) ?? 0) + ((await metricValue(url, 'hop_click_spool_bytes')) ?? 0) > 0) {
    if (Date.now() - start > 300_000) throw new Error('visits still unwritten 300 s after the round');
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - start;
}
const LINKS = 10_000;
const ROUNDS = 2;

const pg = mode === 'postgres' ? freshPostgres() : null;
// HOP_BENCH_PROFILE=<dir> writes a CPU profile of the Hop server there (node --cpu-prof).
const profile = process.env.HOP_BENCH_PROFILE;
const hop = await startHop({ DATABASE_URL: pg ? pg.url : '' }, profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []);
const baseline = await startBaseline();
try {
  process.stderr.write(`seeding ${LINKS} links on ${mode}...\n`);
  const { slugs } = await seedLinks(hop.url, LINKS);
  const visits = (url) => ({
    url,
    requests: randomVisits(slugs),
  });
  // Warm both (Hop's cache, JIT), then alternate so drift hits both alike. Every link is visited
  // once first: random visits for a few seconds leave thousands of links uncached where the server
  // is slow to warm (the embedded database), and the rounds would measure cache misses.
  let next = 0;
  await Promise.all(Array.from({ length: 20 }, async () => {
    while (next < slugs.length) {
      const res = await fetch(`${hop.url}/${slugs[next++]}`, { redirect: 'manual', headers: { 'user-agent': USER_AGENTS[0] } });
      await res.arrayBuffer();
    }
  }));
  await load({ ...visits(hop.url), duration: 3 });
  await load({ ...visits(baseline.url), duration: 2 });
  const runs = { hop: [], baseline: [] };
  // CPU per request as well: on two shared cores the load generator, PostgreSQL and the server
  // compete, so requests/s alone cannot say where the time goes.
  const measured = async (url, pid, isHop) => {
    const meter = cpuMeter({ pids: [pid], postgres: pg ? pg.name : false });
    const r = await load(visits(url));
    const catchUpMs = isHop ? await writtenAfter(url) : 0;
    const cpu = meter.stop();
    return { ...r, catchUpMs, serverUs: (cpu.own * 1000) / r.total, postgresUs: (cpu.postgres * 1000) / r.total };
  };
  const fastBefore = await fastPathVisits(hop.url);
  for (let i = 0; i < ROUNDS; i++) {
    runs.baseline.push(await measured(baseline.url, baseline.pid, false));
    runs.hop.push(await measured(hop.url, hop.child.pid, true));
  }
  const fastShare = ((await fastPathVisits(hop.url)) - fastBefore) / runs.hop.reduce((s, r) => s + r.total, 0);
  const avg = (rs, k) => rs.reduce((s, r) => s + r[k], 0) / rs.length;
  const h = {
    rps: avg(runs.hop, 'rps'), p99: avg(runs.hop, 'p99'), errors: runs.hop.reduce((s, r) => s + r.errors + r.non2xx3xx, 0),
    serverUs: avg(runs.hop, 'serverUs'), postgresUs: avg(runs.hop, 'postgresUs'), catchUpMs: avg(runs.hop, 'catchUpMs'),
  };
  const b = { rps: avg(runs.baseline, 'rps'), p99: avg(runs.baseline, 'p99'), serverUs: avg(runs.baseline, 'serverUs') };
  const ratio = h.rps / b.rps;
  const p99Ratio = h.p99 / Math.max(b.p99, 1);
  const lines = [
    `Database: ${mode}. ${LINKS.toLocaleString()} links (each visited once before), 50 connections, ${ROUNDS} alternating rounds of 8 s, random slugs, six user agents (one a bot), five referrers. Load average ${loadAverage()} at the end.`,
    '',
    '| | requests/s | p99 latency | errors | server CPU per request | database CPU per request |',
    '|---|---|---|---|---|---|',
    `| bare Fastify fixed 302 (baseline) | ${fmt(b.rps)} | ${fmt(b.p99)} ms | | ${fmt(b.serverUs, 1)} µs | |`,
    `| Hop redirect | ${fmt(h.rps)} | ${fmt(h.p99)} ms | ${h.errors} | ${fmt(h.serverUs, 1)} µs | ${pg ? `${fmt(h.postgresUs, 1)} µs` : '(in the server)'} |`,
    `| **ratio** | **${fmt(ratio, 2)}** (target ≥ 0.8) | **${fmt(p99Ratio, 2)}x** (target < 1.5x) | | **${fmt(h.serverUs / b.serverUs, 2)}x** | |`,
    '',
    `${fmt(100 * fastShare, 1)}% of the measured visits were answered on the fast path (the rest by the router). CPU per request counts until every visit of the round was written: ${fmt(h.catchUpMs / 1000, 1)} s after the round's end on average.`,
  ].join('\n');
  console.log(lines);
  writeSection(`Redirect (${mode})`, lines);
} finally {
  await baseline.stop();
  await hop.stop();
  pg?.drop();
}
