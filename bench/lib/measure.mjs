// Runs autocannon and reports what the benchmarks compare.
import autocannon from 'autocannon';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './servers.mjs';

export async function load(opts) {
  const result = await autocannon({ connections: 50, duration: 8, ...opts });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    // autocannon counts 3xx as "non2xx"; a redirect benchmark's failures are 4xx and 5xx.
    non2xx3xx: result['4xx'] + result['5xx'],
    total: result.requests.total,
  };
}

export const fmt = (n, d = 0) => Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** The text of a section of docs/performance.md as last written ('' when there is none). */
export function readSection(title) {
  const file = join(root, 'docs', 'performance.md');
  const doc = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) return '';
  const next = doc.indexOf('\n## ', start + 4);
  return doc.slice(start + `\n## ${title}\n`.length, next >= 0 ? next : undefined).trim();
}

/** Replaces this benchmark's section of docs/performance.md with a fresh table. */
export function writeSection(title, markdown) {
  // HOP_BENCH_WRITE=0: a trial run (a patched build, a profile) prints its figures and leaves the file alone.
  if (process.env.HOP_BENCH_WRITE === '0') return;
  const file = join(root, 'docs', 'performance.md');
  const head = '# Performance\n\nWritten by `npm run bench`; each section is replaced when its benchmark runs. Ratios compare against a baseline measured in the same run, alternately; absolute figures are for the record only (they swing by a third between runs on this 2-core machine).\n';
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : head;
  const start = doc.indexOf(`\n## ${title}\n`);
  const section = `\n## ${title}\n\n${markdown.trim()}\n`;
  if (start >= 0) {
    const next = doc.indexOf('\n## ', start + 4);
    doc = doc.slice(0, start) + section + (next >= 0 ? doc.slice(next) : '');
  } else {
    // New sections go before the hand-written standing, which stays last.
    const standing = doc.indexOf('\n## Standing\n');
    doc = standing >= 0 ? doc.slice(0, standing) + section + doc.slice(standing) : doc + section;
  }
  writeFileSync(file, doc);
}
