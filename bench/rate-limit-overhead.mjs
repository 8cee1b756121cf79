#!/usr/bin/env node
// What the rate-limit check costs (target: under 15%): the same cheap authenticated call
// (GET /v1/workspaces/{ws} with a session: token check, membership, one read) on two Hop servers,
// one with limits on and one with HOP_RATE_LIMITS=off, measured alternately in the same run.
// The workspace is enterprise with the largest limits the admin API accepts, so the load never
// reaches them: what is measured is the check, not refusals.
// Usage: node bench/rate-limit-overhead.mjs [embedded|postgres]   (default embedded)
import { ADMIN_TOKEN, freshPostgres, startHop } from './lib/servers.mjs';
import { fmt, load, writeSection } from './lib/measure.mjs';

const mode = process.argv[2] ?? 'embedded';
const ROUNDS = 3;

async function call(base, method, path, { token, body } = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), 'x-admin-token': ADMIN_TOKEN },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function seed(base) {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
  const { token } = await call(base, 'POST', '/v1/auth/signup', { body: { email, password: 'bench-password-1', name: 'Bench' } });
  const ws = await call(base, 'POST', '/v1/workspaces', { token, body: { name: 'Bench', slug: `bench-${Date.now()}` } });
  await call(base, 'PATCH', `/v1/admin/workspaces/${ws.id}`, { body: { plan: 'enterprise', rateLimit: { perHour: 10_000_000, perMinute: 1_000_000 } } });
  return { token, path: `/v1/workspaces/${ws.id}` };
}

const pgOn = mode === 'postgres' ? freshPostgres() : null;
const pgOff = mode === 'postgres' ? freshPostgres() : null;
// Plans mode on both: a self-hosted server (the default) has no request limit to check.
const on = await startHop({ HOP_PLANS: 'on', HOP_RATE_LIMITS: 'on', DATABASE_URL: pgOn ? pgOn.url : '' });
const off = await startHop({ HOP_PLANS: 'on', HOP_RATE_LIMITS: 'off', DATABASE_URL: pgOff ? pgOff.url : '' });
try {
  const targets = { on: { url: on.url, ...(await seed(on.url)) }, off: { url: off.url, ...(await seed(off.url)) } };
  const opts = (t) => ({ url: t.url + t.path, headers: { authorization: `Bearer ${t.token}` } });
  const check = await fetch(targets.on.url + targets.on.path, { headers: { authorization: `Bearer ${targets.on.token}` } });
  if (!check.headers.get('x-ratelimit-limit')) throw new Error('limits are not on: no X-RateLimit-Limit header');
  await load({ ...opts(targets.on), duration: 3 });
  await load({ ...opts(targets.off), duration: 3 });
  const runs = { on: [], off: [] };
  for (let i = 0; i < ROUNDS; i++) {
    runs.off.push(await load(opts(targets.off)));
    runs.on.push(await load(opts(targets.on)));
  }
  const avg = (rs, k) => rs.reduce((s, r) => s + r[k], 0) / rs.length;
  const errors = (rs) => rs.reduce((s, r) => s + r.errors + r.non2xx3xx, 0);
  const r = { on: avg(runs.on, 'rps'), off: avg(runs.off, 'rps') };
  const overhead = r.off / r.on - 1; // extra time per request, from throughput
  const lines = [
    `Database: ${mode}. GET /v1/workspaces/{ws} with a session token, 50 connections, ${ROUNDS} alternating rounds of 8 s; both servers alike but for HOP_RATE_LIMITS.`,
    '',
    '| | requests/s | p50 | p99 | errors |',
    '|---|---|---|---|---|',
    `| limits off (baseline) | ${fmt(r.off)} | ${fmt(avg(runs.off, 'p50'))} ms | ${fmt(avg(runs.off, 'p99'))} ms | ${errors(runs.off)} |`,
    `| limits on | ${fmt(r.on)} | ${fmt(avg(runs.on, 'p50'))} ms | ${fmt(avg(runs.on, 'p99'))} ms | ${errors(runs.on)} |`,
    `| **ratio on/off** | **${fmt(r.on / r.off, 2)}** | | | |`,
    '',
    `Overhead of the check: **${fmt(overhead * 100, 1)}%** per request (target < 15%).`,
  ].join('\n');
  console.log(lines);
  writeSection(`Rate-limit overhead (${mode})`, lines);
  process.exitCode = overhead < 0.15 ? 0 : 1;
} finally {
  await Promise.all([on.stop(), off.stop()]);
  pgOn?.drop();
  pgOff?.drop();
}
