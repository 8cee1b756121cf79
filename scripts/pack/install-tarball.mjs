// Packs the CLI or the server and installs the tarball with `npm install -g` into a prefix of its
// own, as a user without the checkout would: HOME an empty directory, no npm settings of ours, and
// the registry pointed at a closed loopback port, so the install proves the tarball needs nothing
// from the network (and cannot reach it).
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAMES } from './names.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The environment of a user with an empty HOME and none of npm's, Hop's or XDG's variables, nor
 * the other settings a Hop server reads (a test run's DATABASE_URL, say).
 */
export function cleanEnv(home) {
  const unset = /^(npm_|HOP_|XDG_|(NODE_OPTIONS|CI|DATABASE_URL|REDIS_URL|SMTP_URL|PORT|HOST)$)/i;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !unset.test(k)));
  return { ...env, HOME: home, npm_config_cache: join(home, '.npm'), npm_config_registry: 'http://127.0.0.1:9/', npm_config_update_notifier: 'false' };
}

function run(command, args, opts) {
  const res = spawnSync(command, args, { encoding: 'utf8', ...opts });
  if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${res.status}:\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

/** Packs `which` (cli or server) into `dir` and returns the tarball's path. */
export function pack(which, dir) {
  return run(process.execPath, [join(root, 'scripts', 'pack.mjs'), which, '--out', dir], { cwd: root }).trim();
}

/**
 * Installs `tarball` globally into `prefix` as the user whose HOME is `home`; returns the installed
 * bin's path and the package directory.
 */
export function installGlobal({ tarball, prefix, home, which }) {
  mkdirSync(home, { recursive: true });
  run('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], { cwd: home, env: cleanEnv(home) });
  const name = PACKAGE_NAMES[which];
  return { bin: join(prefix, 'bin', which === 'cli' ? 'hop' : 'hop-server'), packageDir: join(prefix, 'lib', 'node_modules', name) };
}
