#!/usr/bin/env node
// `npm run bench`: builds, then runs every benchmark in turn; each writes its section of
// docs/performance.md. Benchmarks start their own servers and use loopback only.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.slice(2);
// The redirect and API benchmarks first, then the rest; any other benchmark in bench/ runs after them.
const listed = [
  ['redirect.mjs', 'postgres'],
  ['redirect.mjs', 'embedded'],
  ['click-ingestion.mjs'], // 60 s of load (HOP_BENCH_SECONDS shortens it), about 100 s in all
  ['link-creation.mjs', 'postgres'],
  ['analytics.mjs'],
  ['webhook-dispatch.mjs'],
  ['qr-render.mjs'],
  ['cli-startup.mjs'],
  ['dashboard.mjs'], // bundle size against its 200 KB budget, first load in Chromium
];
const runs = [
  ...listed,
  ...readdirSync(new URL('.', import.meta.url))
    .filter((f) => f.endsWith('.mjs') && !f.startsWith('.') && f !== 'run-all.mjs' && !listed.some(([l]) => l === f))
    .map((f) => [f]),
].filter(([f]) => only.length === 0 || only.some((o) => f.startsWith(o)));

if (spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
let failed = 0;
for (const [file, ...args] of runs) {
  process.stdout.write(`\n### ${file} ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [`bench/${file}`, ...args], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
