#!/usr/bin/env node
// `npm test [-- <file|folder|pattern>... [--except=<folder>]... [--test-name-pattern=...]]`: builds
// (incrementally), then runs the chosen *.test.ts files with node's test runner; with no argument,
// every one. A pattern
// that is neither a file nor a folder picks every test file whose path contains it
// (`npm test -- link-health`). Flags starting with `--test-` go to node's runner.
//
// The tiers (package.json `test:<tier>`): unit tests beside their source (shared/src, server/src,
// cli/src) and test/in-process build what they need themselves; every other folder of test/ runs
// against one real server started here (embedded database, or PostgreSQL when DATABASE_URL is
// set), which is started only when such a file is chosen.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedEmbeddedTemplate } from './helpers/embedded-template.mjs';
import { startServer } from './helpers/start-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const runnerFlags = argv.filter((a) => a.startsWith('--test-'));
// `--except=<folder>` leaves a folder's files out (CI runs the tiers that need no database once).
const excepted = argv.filter((a) => a.startsWith('--except=')).map((a) => relative(root, resolve(process.cwd(), a.slice('--except='.length))) + sep);
const selectors = argv.filter((a) => !a.startsWith('--test-') && !a.startsWith('--except='));

const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

function findTests(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) findTests(p, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out;
}
const everyTest = ['test', 'shared/src', 'server/src', 'cli/src'].flatMap((d) => findTests(join(root, d))).sort();
// Tiers run only when named (`npm run test:lighthouse`): Lighthouse's scores depend on the
// machine's load, which a whole-suite run on two shared cores makes too high to judge a page by.
const OWN_TIER = ['test/lighthouse/'].map((d) => d.split('/').join(sep));

/** The files a selector names: a test file, every test file under a folder, or every path containing it. */
function select(selector) {
  const abs = resolve(process.cwd(), selector);
  if (existsSync(abs)) return statSync(abs).isDirectory() ? findTests(abs) : [relative(root, abs)];
  const needle = selector.split('/').join(sep);
  return everyTest.filter((f) => f.includes(needle));
}
const chosen = selectors.length ? [...new Set(selectors.flatMap((s) => {
  const found = select(s);
  if (!found.length) {
    process.stderr.write(`npm test: no test file matches ${JSON.stringify(s)}\n`);
    process.exit(1);
  }
  return found;
}))] : everyTest.filter((f) => !OWN_TIER.some((d) => f.startsWith(d)));
const files = chosen.filter((f) => !excepted.some((d) => f.startsWith(d)));

/** Unit and in-process tests start what they need; the rest talk to the run's server. */
const SELF_CONTAINED = ['shared/src/', 'server/src/', 'cli/src/', 'test/in-process/'].map((d) => d.split('/').join(sep));
const needsServer = files.some((f) => !SELF_CONTAINED.some((d) => f.startsWith(d)));

const dataDir = mkdtempSync(join(tmpdir(), 'hop-test-'));
// A throw-away certificate for HTTPS webhook receivers, trusted by every server of the run.
const tlsDir = mkdtempSync(join(tmpdir(), 'hop-test-tls-'));
const openssl = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(tlsDir, 'key.pem'),
  '-out', join(tlsDir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
if (openssl.status === 0) process.env.HOP_TEST_TLS_DIR = tlsDir;
const adminToken = 'test-admin-token-0123456789';
// Every server of a run shares one secret, as a fleet on one database must (sessions, webhook secrets).
process.env.HOP_TEST_SECRET ??= 'test-secret-shared-by-every-server-of-a-run';
// Every server of a run serves /metrics to this token (tests send it as a Bearer token).
process.env.HOP_TEST_METRICS_TOKEN ??= 'test-metrics-token-0123456789';
// The suite makes far more requests per user than a free plan allows (20 a minute): every server
// of the run (this one and those tests start) takes limits 1000 times the plan's. Tests of the
// limits themselves start servers with HOP_RATE_LIMIT_SCALE=1.
process.env.HOP_RATE_LIMIT_SCALE ??= '1000';
// On PostgreSQL every server of a run shares one database, each with its own short domain (and
// some with Redis): unrelated servers, not a fleet, so they skip the check that refuses a process
// disagreeing with the others. Tests of that check turn it on for their own servers.
process.env.HOP_FLEET_CHECK ??= 'off';
// The suite tests the plans (gates, quotas, HOP_DEFAULT_PLAN): every server of the run applies them.
// Tests of the self-hosted default start servers with HOP_PLANS set empty (unset).
process.env.HOP_PLANS ??= 'on';
// Node 22.1 and later keep compiled code of every module the run's processes load (the servers
// and `hop` start again and again); Node 20 ignores the variable.
process.env.NODE_COMPILE_CACHE ??= join(root, 'node_modules', '.cache', 'hop-node-compile');
// One migrated embedded database, copied for every embedded server of the run (this one too) and
// kept between runs until a migration changes: see embedded-template.mjs.
process.env.HOP_TEST_EMBEDDED_TEMPLATE = await cachedEmbeddedTemplate(join(root, 'node_modules', '.cache', 'hop-test-template'));
const server = needsServer ? await startServer({ dataDir, env: {
    HOP_ADMIN_TOKEN: adminToken,
    HOP_CLICK_FLUSH_MS: '100',
    HOP_TRUST_PROXY: '127.0.0.1',
    // Webhook tests run their own servers, which may deliver to loopback receivers; on PostgreSQL
    // they share this database, and this server (which may not reach loopback) must not take
    // their deliveries.
    HOP_DISABLE: 'dispatcher',
  } }) : null;
if (server) process.stderr.write(`test server: ${server.url} on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}\n`);
// The first account of a server is its operator: made here, before any test runs, so that no
// test's account becomes the operator by the order the files happen to run in.
if (server) await fetch(`${server.url}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: `operator-${Date.now()}@example.test`, password: 'operator of the test run', name: 'Test operator' }) });

// Durations per file and per top-level test, for the summary printed at the end.
const timings = join(tlsDir, 'timings.jsonl');
const child = spawn(
  process.execPath,
  // Two files at a time, one a core; HOP_TEST_CONCURRENCY tries another number.
  ['--import', 'tsx', '--test', `--test-concurrency=${process.env.HOP_TEST_CONCURRENCY ?? 2}`,
    // A file whose process cannot exit once its tests are done (a handle left open by a test that
    // failed) would hold the whole run until CI's limit: its failure is reported instead.
    '--test-force-exit',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=./test/helpers/timing-reporter.mjs', `--test-reporter-destination=${timings}`,
    ...runnerFlags, ...files],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      HOP_TEST_ADMIN_TOKEN: adminToken,
      HOP_TEST_DATA_DIR: dataDir,
      ...(server ? { HOP_TEST_API_URL: server.url, HOP_TEST_SHORT_DOMAIN: server.shortDomain } : {}),
    },
  },
);
const code = await new Promise((resolve) => child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0))));
const stopped = server ? await server.stop() : 0;
printSlowest(timings);
rmSync(dataDir, { recursive: true, force: true });
rmSync(tlsDir, { recursive: true, force: true });
if (stopped !== 0) {
  process.stderr.write(`test server exited with ${stopped} on SIGTERM (expected 0)\n${server.output()}\n`);
  process.exit(1);
}
process.exit(code);

/** The 15 slowest files and top-level tests of the run (HOP_TEST_TIMINGS=path keeps every line). */
function printSlowest(path) {
  if (!existsSync(path)) return;
  const rows = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  if (process.env.HOP_TEST_TIMINGS) writeFileSync(process.env.HOP_TEST_TIMINGS, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const show = (kind, label) => {
    const top = rows.filter((r) => r.kind === kind).sort((a, b) => b.ms - a.ms).slice(0, 15);
    if (!top.length) return;
    process.stderr.write(`\nslowest ${label}:\n`);
    for (const r of top) process.stderr.write(`${(r.ms / 1000).toFixed(1).padStart(7)} s  ${relative(root, r.file)}${kind === 'test' ? `  ${r.name}` : ''}\n`);
  };
  show('file', 'test files');
  show('test', 'tests');
}
