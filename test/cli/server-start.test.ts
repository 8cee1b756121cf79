// `npm start` greets a person: on a terminal, where it runs, the dashboard and docs, the next
// command, and short log lines; JSON logs when piped or with HOP_LOG_FORMAT=json. A port in use
// or a data directory held by another server is one line on stderr and exit 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../helpers/api.js';
import { seedDataDir } from '../helpers/embedded-template.mjs';
import { freePort } from '../helpers/start-server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'hop-start-'));
seedDataDir(dataDir, {});
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));

function serverEnv(port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('HOP_') || name === 'DATABASE_URL' || name === 'PORT') delete env[name];
  return { ...env, PORT: String(port), HOP_DATA_DIR: dataDir, HOP_DISABLE: 'dispatcher,jobs', ...extra } as NodeJS.ProcessEnv;
}

/** `bin/hop-server` on a pseudo-terminal (`script`), or piped; stopped by SIGTERM to the pid in its lock file. */
function startServer(port: number, opts: { terminal: boolean; env?: Record<string, string> }) {
  const child = opts.terminal
    ? spawn('script', ['-qec', `exec ${process.execPath} bin/hop-server`, '/dev/null'], { cwd: root, env: serverEnv(port, opts.env), stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, ['bin/hop-server'], { cwd: root, env: serverEnv(port, opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d.replace(/\r\n/g, '\n')));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  return {
    output: () => output,
    waitFor: (pattern: RegExp, what: string) => eventually(async () => (pattern.test(output) ? true : undefined), 60_000, `${what} in:\n${output}`),
    async stop(): Promise<void> {
      process.kill(Number(readFileSync(join(dataDir, 'hop.lock'), 'utf8')), 'SIGTERM');
      await closed;
    },
  };
}

function startFails(port: number) {
  const res = spawnSync(process.execPath, ['bin/hop-server'], { cwd: root, env: serverEnv(port), encoding: 'utf8', timeout: 60_000 });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

test('on a terminal: a greeting with the addresses and the next command, then short log lines; a held data directory and a used port are one line', { timeout: 180_000 }, async () => {
  const port = await freePort();
  const server = startServer(port, { terminal: true });
  try {
    await server.waitFor(/Press Ctrl-C to stop/, 'the greeting');
    const out = server.output();
    assert.match(out, new RegExp(`Hop is running at http://localhost:${port} \\(listening on 127\\.0\\.0\\.1:${port}\\)`));
    assert.match(out, new RegExp(`Dashboard +http://localhost:${port}/app\\n`));
    assert.match(out, new RegExp(`API docs +http://localhost:${port}/docs\\n`));
    assert.match(out, new RegExp(`export HOP_API_URL=http://localhost:${port}\\n`));
    // Nothing configured: self-hosted, sign-up open (docs/api.md, Self-hosting).
    assert.match(out, /Mode +self-hosted: every feature, no quotas \(HOP_PLANS=on applies plans\)\n/);
    assert.match(out, /Sign-up +open to anyone/);
    assert.match(out, /\.\/bin\/hop signup +create an account/);
    assert.match(out, /\.\/bin\/hop login +or log in/);
    assert.equal((await fetch(`http://127.0.0.1:${port}/v1/me`)).status, 401);
    await server.waitFor(/\d\d:\d\d:\d\d GET \/v1\/me 401 \d+ ms\n/, 'the request line');
    assert.ok(!server.output().includes('{"level"'), 'no JSON on a terminal');

    const held = startFails(await freePort());
    assert.equal(held.code, 1);
    assert.equal(held.stdout, '');
    assert.match(held.stderr, /^hop-server: the embedded database in \S+ is in use by process \d+: stop that server or set HOP_DATA_DIR\n$/);
  } finally {
    await server.stop();
  }
  // The port held by something else, the data directory free again.
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
  try {
    const used = startFails(port);
    assert.equal(used.code, 1);
    assert.equal(used.stderr, `hop-server: port ${port} is in use on 127.0.0.1 (another Hop server?): stop it or set PORT\n`);
  } finally {
    blocker.close();
  }
});

test('piped, or with HOP_LOG_FORMAT=json on a terminal: JSON log lines and no greeting', { timeout: 120_000 }, async () => {
  for (const terminal of [false, true]) {
    const port = await freePort();
    const server = startServer(port, { terminal, env: terminal ? { HOP_LOG_FORMAT: 'json' } : {} });
    try {
      await server.waitFor(/Server listening at/, 'the listening line');
      await fetch(`http://127.0.0.1:${port}/v1/me`);
      await server.waitFor(/"statusCode":401/, 'the request log');
      const lines = server.output().split('\n').filter(Boolean);
      for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `a JSON line: ${line}`);
      assert.ok(!server.output().includes('Hop is running'), 'no greeting');
    } finally {
      await server.stop();
    }
  }
});
