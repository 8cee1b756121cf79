#!/usr/bin/env node
// The cost of smart links on the redirect: a link with 10 rules (none matching, so each visit tries
// them all, reading country, device, OS, browser and language) and a 50/50 split, against a plain
// link, measured alternately in the same run on the same server. Reported two ways: server CPU per
// request under load (what the target is about: at most 5 µs more), and the choice alone in process.
// Usage: node bench/smart-redirect.mjs [embedded|postgres]   (default embedded; on PostgreSQL the
// database's work on the clicks is out of the server's process, so its CPU is the redirect's alone)
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { ADMIN_TOKEN, fastPathVisits, freshPostgres, pick, startHop, USER_AGENTS } from './lib/servers.mjs';
import { fmt, load, writeSection } from './lib/measure.mjs';
import { cpuMeter } from './lib/cpu.mjs';

const ROUNDS = 3;
const SMART = {
  rules: [
    ...['JP', 'KR', 'CN', 'IN'].map((c) => ({ when: { country: [c, 'XX'] }, url: `https://example.com/${c}` })),
    { when: { language: ['ja', 'ko'] }, url: 'https://example.com/lang' },
    { when: { device: 'tablet', os: 'Windows' }, url: 'https://example.com/tablet' },
    { when: { browser: ['Opera', 'Vivaldi'] }, url: 'https://example.com/browser' },
    { when: { os: 'ChromeOS' }, url: 'https://example.com/os' },
    { when: { country: 'BR', language: 'pt' }, url: 'https://example.com/br' },
    { when: { after: '2099-01-01T00:00:00.000Z' }, url: 'https://example.com/future' },
  ],
  variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }],
};
// Desktop and bot agents only: phones would take the ios/android shortcut if the link had one
// (it has none, so they too would try every rule; kept out to compare like with like).
const AGENTS = USER_AGENTS.filter((ua) => !/iPhone|Android|bot/i.test(ua));
const ADDRESSES = Array.from({ length: 500 }, () => `${[5, 46, 81, 85, 193][Math.floor(Math.random() * 5)]}.${randomBytes(3).join('.')}`);
const LANGUAGES = ['en-US,en;q=0.9', 'de-DE,de;q=0.8', 'fr', 'es-ES'];

async function call(base, method, path, token, body) {
  const res = await fetch(base + path, {
    method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * The choice and the visit's record, in this process: a smart link's facts, target and record
 * against a plain link's record (which hashes the visitor and finds the country anyway; a smart
 * link's record reuses what its choice worked out). The record goes to a pipeline that keeps nothing.
 */
async function inProcess() {
  const { createSmartVisits } = await import('../server/dist/redirector/smart-visit.js');
  const { createVisitRecorder } = await import('../server/dist/redirector/visit-recorder.js');
  const { compileSmart } = await import('../server/dist/domain/links/smart-target.js');
  const { createGeoLookup } = await import('../server/dist/domain/clicks/visit-details.js');
  const { createVisitorSalts } = await import('../server/dist/domain/clicks/visitor-salts.js');
  const clock = { now: () => new Date() };
  const geo = createGeoLookup();
  const salts = createVisitorSalts({ db: null, clock });
  const smart = createSmartVisits({ geo, salts });
  const recorder = createVisitRecorder({ clicks: { enqueue() {} }, salts, geo, clock });
  const salt = randomBytes(32);
  const base = { id: 'lnk_0000000000000000bench', workspaceId: 'ws_00000000000000000bench', domain: 'hop.test', slug: 'bench', url: 'https://example.com/' };
  const smartLink = { ...base, smart: compileSmart({ ios: null, android: null, preview: null, ...SMART }) };
  const plainLink = { ...base, smart: null };
  const from = { source: 'link', qrId: null };
  const visits = Array.from({ length: 1000 }, () => [pick(ADDRESSES), { 'user-agent': pick(AGENTS), 'accept-language': pick(LANGUAGES) }]);
  const time = (link, n, record) => {
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const [ip, headers] = visits[i % visits.length];
      const now = Date.now();
      const choice = smart.choose(link, salt, ip, headers, now);
      if (record) {
        recorder.enqueue({ salt, link, from, ip, headers, isBot: false, counted: false, target: choice?.target, destination: choice?.url, facts: choice?.facts, at: now });
      }
    }
    const used = process.cpuUsage(start);
    return (used.user + used.system) / n;
  };
  for (const record of [false, true]) {
    time(smartLink, 50_000, record); // warm up the JIT and the per-agent memo
    time(plainLink, 50_000, record);
  }
  return {
    smartUs: time(smartLink, 200_000, false), plainUs: time(plainLink, 200_000, false),
    smartRecordedUs: time(smartLink, 200_000, true), plainRecordedUs: time(plainLink, 200_000, true),
  };
}

const mode = process.argv[2] ?? 'embedded';
const pg = mode === 'postgres' ? freshPostgres() : null;
const hop = await startHop({ DATABASE_URL: pg ? pg.url : '', HOP_TRUST_PROXY: '127.0.0.1' });
try {
  const email = `bench-${Date.now()}@example.test`;
  const { token } = await call(hop.url, 'POST', '/v1/auth/signup', null, { email, password: 'bench-password-1', name: 'Bench' });
  const ws = await call(hop.url, 'POST', '/v1/workspaces', token, { name: 'Bench', slug: `bench-${Date.now()}` });
  await fetch(`${hop.url}/v1/admin/workspaces/${ws.id}`, {
    method: 'PATCH', headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN }, body: JSON.stringify({ plan: 'business' }),
  });
  const plain = await call(hop.url, 'POST', `/v1/workspaces/${ws.id}/links`, token, { url: 'https://example.com/plain', slug: 'plain' });
  const smart = await call(hop.url, 'POST', `/v1/workspaces/${ws.id}/links`, token, { url: 'https://example.com/smart', slug: 'smart', ...SMART });
  const visits = (slug) => ({
    url: hop.url,
    requests: [{
      setupRequest: (req) => ({
        ...req, path: `/${slug}`,
        headers: { 'user-agent': pick(AGENTS), 'x-forwarded-for': pick(ADDRESSES), 'accept-language': pick(LANGUAGES) },
      }),
    }],
  });
  await load({ ...visits(plain.slug), duration: 3 });
  await load({ ...visits(smart.slug), duration: 3 });
  const runs = { plain: [], smart: [] };
  const measured = async (slug) => {
    const fastBefore = await fastPathVisits(hop.url);
    const meter = cpuMeter({ pids: [hop.child.pid] });
    const r = await load({ ...visits(slug), duration: 6 });
    const serverUs = (meter.stop().own * 1000) / r.total;
    return { ...r, serverUs, fast: ((await fastPathVisits(hop.url)) - fastBefore) / r.total };
  };
  for (let i = 0; i < ROUNDS; i++) {
    runs.plain.push(await measured(plain.slug));
    runs.smart.push(await measured(smart.slug));
  }
  const avg = (rs, k) => rs.reduce((s, r) => s + r[k], 0) / rs.length;
  const p = { rps: avg(runs.plain, 'rps'), us: avg(runs.plain, 'serverUs'), fast: avg(runs.plain, 'fast'), errors: runs.plain.reduce((s, r) => s + r.errors + r.non2xx3xx, 0) };
  const s = { rps: avg(runs.smart, 'rps'), us: avg(runs.smart, 'serverUs'), fast: avg(runs.smart, 'fast'), errors: runs.smart.reduce((s2, r) => s2 + r.errors + r.non2xx3xx, 0) };
  const micro = await inProcess();
  const lines = [
    `${pg ? 'PostgreSQL' : 'Embedded database'}, one server, 50 connections, ${ROUNDS} alternating rounds of 6 s; 500 visitor addresses (X-Forwarded-For), desktop user agents, four Accept-Language values. The smart link has 10 rules (country, language, device, OS, browser, time; none matches, so every rule is tried) and a 50/50 split.`,
    '',
    '| | requests/s | errors | server CPU per request |',
    '|---|---|---|---|',
    `| plain link (baseline) | ${fmt(p.rps)} | ${p.errors} | ${fmt(p.us, 1)} µs |`,
    `| link with 10 rules and 2 variants | ${fmt(s.rps)} | ${s.errors} | ${fmt(s.us, 1)} µs |`,
    `| **difference** | **${fmt(s.rps / p.rps, 2)}x** | | **${fmt(s.us - p.us, 1)} µs, ${fmt(s.us / p.us, 2)}x** (target ≤ 5 µs more) |`,
    '',
    `In process: the choice alone (facts, 10 rules, the split) ${fmt(micro.smartUs, 2)} µs per visit against ${fmt(micro.plainUs, 2)} µs for a plain link; the choice and the visit's record ${fmt(micro.smartRecordedUs, 2)} µs against ${fmt(micro.plainRecordedUs, 2)} µs, a difference of **${fmt(micro.smartRecordedUs - micro.plainRecordedUs, 2)} µs** (the record reuses the visitor hash and country the choice worked out).`,
    `Answered on the fast path: ${fmt(100 * p.fast, 1)}% of the plain link's visits, ${fmt(100 * s.fast, 1)}% of the smart link's.`,
    `Load average ${loadavg().map((n) => n.toFixed(1)).join(', ')} at the end.`,
  ].join('\n');
  console.log(lines);
  writeSection(`Smart links on the redirect (${mode})`, lines);
} finally {
  await hop.stop();
  pg?.drop();
}
