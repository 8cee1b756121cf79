#!/usr/bin/env node
// The dashboard: the JavaScript a first visit downloads (scripts and modulepreloads the HTML names,
// gzipped as served) against the 200 KB budget, and the first load in headless Chromium on
// loopback, cold cache each time: the sign-in page until its form is usable, and the links list
// (signed in, 20 links) until its rows show, against the server's plain HTML page (a redirector
// 404 page, no script) loaded the same way, alternately; medians and ratios.
// Usage: node bench/dashboard.mjs [runs]   (default 9 of each)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root, seedLinks, startHop } from './lib/servers.mjs';
import { fmt, writeSection } from './lib/measure.mjs';

const RUNS = Number(process.argv[2] ?? process.env.HOP_BENCH_RUNS ?? 9);
const BUDGET_KB = 200;
const dist = join(root, 'web', 'dist');

function bundle() {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const size = (f) => { const b = readFileSync(join(dist, f)); return { raw: b.length, gz: gzipSync(b, { level: 9 }).length }; };
  const sum = (files) => files.map(size).reduce((a, s) => ({ raw: a.raw + s.raw, gz: a.gz + s.gz }), { raw: 0, gz: 0 });
  return { files: initial.length, initial: sum(initial) };
}

const b = bundle();
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
const hop = await startHop({ DATABASE_URL: '' });
try {
  const { token } = await seedLinks(hop.url, 20);
  const me = await (await fetch(`${hop.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).json();
  const ws = (await (await fetch(`${hop.url}/v1/workspaces`, { headers: { authorization: `Bearer ${token}` } })).json()).data[0];
  const session = JSON.stringify({ token, expiresAt: new Date(Date.now() + 3_600_000).toISOString(), user: me.data });

  // Each load in a new context: no cache, no storage, as a first visit.
  async function load(url, ready, signedIn = false) {
    const context = await browser.newContext();
    if (signedIn) await context.addInitScript((s) => localStorage.setItem('hop.session', s), session);
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(url);
    await ready(page);
    const ms = performance.now() - started;
    await context.close();
    return ms;
  }
  const cases = {
    plain: () => load(`${hop.url}/no-such-link-here`, (p) => p.getByRole('heading').first().waitFor()),
    login: () => load(`${hop.url}/app/login`, (p) => p.getByRole('button', { name: 'Sign in' }).waitFor()),
    links: () => load(`${hop.url}/app/${ws.slug}/links`, (p) => p.locator('table tbody tr').nth(19).waitFor(), true),
  };
  for (const c of Object.values(cases)) await c();
  const times = { plain: [], login: [], links: [] };
  for (let i = 0; i < RUNS; i++) for (const [k, c] of Object.entries(cases)) times[k].push(await c());
  const median = (xs) => [...xs].sort((a, c) => a - c)[Math.floor(xs.length / 2)];
  const m = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs)]));
  const kb = (n) => fmt(n / 1024, 1);
  const lines = [
    `Initial JavaScript: the ${b.files} scripts the HTML names (entry and modulepreloads), as served gzipped; pages, the QR designer and the CSV parser and writer load later, on demand. First loads in headless Chromium on loopback, a new browser context (cold cache) each time, ${RUNS} of each alternating; medians.`,
    '',
    `| initial JavaScript | raw | gzipped | budget |`,
    '|---|---|---|---|',
    `| ${b.files} files | ${kb(b.initial.raw)} KB | **${kb(b.initial.gz)} KB** | ${BUDGET_KB} KB (${b.initial.gz <= BUDGET_KB * 1024 ? 'within' : 'OVER'}) |`,
    '',
    '| first load | median | ratio to a plain HTML page |',
    '|---|---|---|',
    `| plain HTML page of the same server, no script (baseline) | ${fmt(m.plain)} ms | 1.00 |`,
    `| \`/app/login\` until the form is usable | ${fmt(m.login)} ms | **${fmt(m.login / m.plain, 2)}** |`,
    `| \`/app/{ws}/links\` signed in, until 20 rows show | ${fmt(m.links)} ms | **${fmt(m.links / m.plain, 2)}** |`,
  ].join('\n');
  console.log(lines);
  writeSection('Dashboard bundle and first load', lines);
  if (b.initial.gz > BUDGET_KB * 1024) process.exitCode = 1;
} finally {
  await browser.close();
  await hop.stop();
}
