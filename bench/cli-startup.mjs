#!/usr/bin/env node
// CLI cold start of the INSTALLED package, as users run it: the CLI is packed (`npm run pack:cli`)
// and installed with `npm install -g` into a prefix of its own, then `hop --version`, `hop links
// list` and `hop links create <url>` (logged in with `hop login --with-token`, against a running Hop
// server on the embedded database) run against `node -e 0`, each a fresh process, alternately;
// medians and their ratios. Each command runs once before the timed rounds, so its V8 code cache
// is written, as after a user's first run; `hop links list` without the cache (a first run) and from
// the checkout (bin/hop, unbundled) are timed alongside. The API call inside `links create` is
// timed on its own (the same request from this process) so the CLI's share can be told apart.
// Run it with another Node (`~/.cache/hop/node24/node_modules/.bin/node bench/cli-startup.mjs`)
// for that Node's section.
// Usage: node bench/cli-startup.mjs [runs]   (default 15 of each)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, installGlobal, pack } from '../scripts/pack/install-tarball.mjs';
import { root, seedLinks, startHop } from './lib/servers.mjs';
import { fmt, writeSection } from './lib/measure.mjs';

const RUNS = Number(process.argv[2] ?? process.env.HOP_BENCH_RUNS ?? 15);
const scratch = mkdtempSync(join(tmpdir(), 'hop-bench-cli-'));
const home = join(scratch, 'home');
const { packageDir } = installGlobal({ tarball: pack('cli', scratch), prefix: join(scratch, 'prefix'), home, which: 'cli' });
// The installed bin is a link to this file; node runs it directly so the baseline is comparable.
const HOP = join(packageDir, 'bin', 'hop.js');
const CHECKOUT_HOP = join(root, 'bin', 'hop');
// A user's environment: HOME empty, nothing of Hop's, CI's or npm's that would change what the CLI does.
const env = cleanEnv(home);
env.HOP_CONFIG_DIR = join(scratch, 'config');
// HOP_BENCH_PROFILE=<dir>: CPU profiles of every `hop` run there (node --cpu-prof).
const profile = process.env.HOP_BENCH_PROFILE;
const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];

/**
 * One fresh process: its wall time, and the CPU time it used (user + system, from bash's `time`,
 * which reads the child's rusage). On a machine shared with other work the wall time waits for a
 * core; the CPU time waits less, so its ratio moves less with the load (a target is still read on
 * a quiet machine).
 */
function run(args, input, extraEnv = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync('bash', ['-c', 'TIMEFORMAT="cpu %3U %3S"; time "$@"', 'bash', process.execPath, ...args],
    { env: { ...env, ...extraEnv }, input, encoding: 'utf8', cwd: root });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = /cpu (\d+\.\d+) (\d+\.\d+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || !cpu) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000, stdout: r.stdout };
}

const hop = await startHop({ DATABASE_URL: '' });
try {
  const { token, workspaceId } = await seedLinks(hop.url, 20); // a page for `links list`
  run([HOP, 'login', '--with-token', '--api-url', hop.url], token);
  const cases = {
    node: () => run(['-e', '0']),
    version: () => run([...nodeArgs, HOP, '--version']),
    list: () => run([...nodeArgs, HOP, 'links', 'list']),
    firstList: () => run([...nodeArgs, HOP, 'links', 'list'], undefined, { NODE_DISABLE_COMPILE_CACHE: '1' }),
    checkoutList: () => run([CHECKOUT_HOP, 'links', 'list']),
    create: (i) => run([...nodeArgs, HOP, 'links', 'create', `https://example.com/cli/${i}?utm_source=bench`]),
  };
  const first = cases.create('check').stdout.trim();
  if (!/^http:\/\/localhost:\d+\/[A-Za-z0-9]+$/.test(first)) throw new Error(`links create printed ${JSON.stringify(first)}`);
  // The API call alone, from a warm process, as `links create` makes it.
  const api = async (i) => {
    const started = performance.now();
    const res = await fetch(`${hop.url}/v1/workspaces/${workspaceId}/links`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: `https://example.com/api/${i}?utm_source=bench` }),
    });
    await res.json();
    if (res.status !== 201) throw new Error(`API create: ${res.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 2; i++) {
    cases.node();
    cases.version();
    cases.list();
    cases.create(`warm${i}`);
    await api(`warm${i}`);
  }
  const times = { node: [], version: [], list: [], firstList: [], checkoutList: [], create: [], api: [] };
  const cpu = { node: [], version: [], list: [], firstList: [], checkoutList: [], create: [] };
  const record = (name, r) => {
    times[name].push(r.ms);
    cpu[name].push(r.cpuMs);
  };
  for (let i = 0; i < RUNS; i++) {
    record('node', cases.node());
    record('version', cases.version());
    record('list', cases.list());
    record('firstList', cases.firstList());
    record('checkoutList', cases.checkoutList());
    record('create', cases.create(i));
    times.api.push(await api(i));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const m = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs)]));
  const c = Object.fromEntries(Object.entries(cpu).map(([k, xs]) => [k, median(xs)]));
  const row = (label, k) => `| ${label} | ${fmt(m[k])} ms | **${fmt(m[k] / m.node, 2)}** | ${fmt(c[k])} ms | **${fmt(c[k] / c.node, 2)}** |`;
  const lines = [
    `The installed package (\`hop-cli\`, packed and installed with \`npm install -g\` into a prefix of its own), Node ${process.version}. Each a fresh process, ${RUNS} runs of each, alternating, after one run of each command (which writes its code cache); medians; load average ${loadavg().map((l) => l.toFixed(1)).join(', ')} at the end. \`links list\` and \`links create\` logged in with \`hop login --with-token\` (settings file), against a Hop server on the embedded database on loopback; its API call alone (the same request from a warm process) is timed alongside.`,
    '',
    '| command | wall, median | ratio to `node -e 0` | CPU (user + system), median | ratio to `node -e 0` |',
    '|---|---|---|---|---|',
    `| \`node -e 0\` (baseline) | ${fmt(m.node)} ms | 1.00 | ${fmt(c.node)} ms | 1.00 |`,
    row('`hop --version`', 'version'),
    row('`hop links list`', 'list'),
    row('`hop links create <url>`', 'create'),
    `| of which the API call (warm fetch) | ${fmt(m.api, 1)} ms | | | |`,
    row('`hop links list` without its code cache (a first run)', 'firstList'),
    row('`hop links list` from the checkout (`bin/hop`, unbundled)', 'checkoutList'),
    '',
    "The package is one esbuild bundle, a single CommonJS file (scripts/pack/bundle-cli.mjs): a cold start reads it and the manifest where the checkout resolves and compiles some 250 modules of oclif and its dependencies one by one. The bin compiles the bundle with V8's code cache (scripts/pack/cli-bin.cjs), one for each command, written after the command's first run into the user's cache directory (`~/.cache/hop/compile-cache`) with every function that run compiled, so a later start neither parses nor compiles what it runs; Node 20 has no compile cache of its own, and an ES module cannot be given one. Each command is a module of the bundle evaluated only when it runs. A first run compiles the whole bundle (the row without the cache). The libraries oclif requires at load but a run with a manifest never calls (globbing, help templates, spinners, semver, debug, its rc-file search) are stand-ins that load them on first use, its reads of package.json and the manifest use `node:fs` rather than `node:fs/promises` (and the readline and stream modules that loads), and the autocomplete plugin's commands are commands of the bundle, so no plugin is looked up at start. Wall-time ratios shrink as the machine's load grows, since every process, the baseline too, waits for a core; the CPU ratios move less, but shrink too: compare rows of one run, and read a target on a quiet machine. What a command loads is what it needs: `--version` and `--help` come from the manifest; a command that calls the API loads its own module, the client (node:http, no undici) and the method and path of each route (`shared/src/route-paths.ts`, no zod); the contracts and zod load only in the commands that parse with them, the settings file is read with `node:fs` rather than `conf`, and stdin is asked whether it is a terminal without opening a stream over it (test/cli/startup.test.ts checks what loads).",
  ].join('\n');
  console.log(lines);
  const major = Number(process.versions.node.split('.')[0]);
  writeSection(major === 20 ? 'CLI cold start' : `CLI cold start on Node ${major}`, lines);
} finally {
  await hop.stop();
  rmSync(scratch, { recursive: true, force: true });
}
