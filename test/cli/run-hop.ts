// Runs the real `bin/hop` as a child process against the test server, with its own settings
// directory, stdin a pipe (never a TTY) and none of the caller's HOP_* or CI variables.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_URL, team, type Team } from '../helpers/api.js';

export const HOP_BIN = fileURLToPath(new URL('../../bin/hop', import.meta.url));

const configDirs: string[] = [];
process.once('exit', () => configDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

export interface HopResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HopOptions {
  /** Written to stdin, which is then closed. */
  input?: string;
  env?: Record<string, string | undefined>;
}

/** A `hop` bound to a fresh, empty settings directory (removed when the test process exits). */
export function hopSession() {
  const configDir = mkdtempSync(join(tmpdir(), 'hop-cli-'));
  configDirs.push(configDir);
  const run = (args: string[], opts: HopOptions = {}) => runHop(args, { ...opts, env: { HOP_CONFIG_DIR: configDir, ...opts.env } });
  /** Runs and parses stdout as JSON, failing with stderr when the command did not exit 0. */
  const json = async <T = unknown>(args: string[], opts: HopOptions = {}): Promise<T> => {
    const res = await run([...args, '--json'], opts);
    if (res.code !== 0) throw new Error(`hop ${args.join(' ')} exited ${res.code}: ${res.stderr}`);
    return JSON.parse(res.stdout) as T;
  };
  /** Stores a credential the way a user would: piped into `hop login --with-token`. */
  const login = async (credential: string) => {
    const res = await run(['login', '--with-token'], { input: credential });
    if (res.code !== 0) throw new Error(`login failed (${res.code}): ${res.stderr}`);
    return res;
  };
  return { configDir, run, json, login };
}

/** The environment `hop` runs in: the test server's URL, none of the caller's HOP_* or CI, then `extra` (undefined unsets). */
export function hopEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, HOP_API_URL: API_URL, NO_COLOR: '1' };
  // A job's own identity never leaks in: the CLI would exchange it (docs/ci.md).
  for (const name of ['HOP_API_KEY', 'HOP_WORKSPACE', 'HOP_CONFIG_DIR', 'CI', 'HOP_OIDC_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_URL', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN']) delete env[name];
  Object.assign(env, extra);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env as Record<string, string>;
}

export function runHop(args: string[], opts: HopOptions = {}): Promise<HopResult> {
  const env = hopEnv(opts.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOP_BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

/** A new team's owner, logged in with a settings directory of its own, its workspace the default. */
export async function loggedInTeam(): Promise<{ t: Team; hop: ReturnType<typeof hopSession> }> {
  const t = await team();
  const hop = hopSession();
  await hop.login(t.token);
  const use = await hop.run(['workspaces', 'use', t.slug]);
  if (use.code !== 0) throw new Error(`hop workspaces use failed: ${use.stderr}`);
  return { t, hop };
}
