// Starts a real `bin/hop-server` on a free loopback port and waits until it is ready.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDataDir } from './embedded-template.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The Node flags `bin/hop-server`'s first line gives (`#!/usr/bin/env -S node <flags>`): servers
 * started here run under `process.execPath` (the Node version under test) with the same flags as
 * `npm start`.
 */
export const SERVER_NODE_FLAGS = readFileSync(join(root, 'bin/hop-server'), 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(3);

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * An embedded server's empty data directory gets a copy of the run's migrated database
 * (embedded-template.mjs), unless `fresh`.
 * @param {{ dataDir: string, env?: Record<string, string>, port?: number, timeoutMs?: number, nodeArgs?: string[], fresh?: boolean }} opts
 */
export async function startServer(opts) {
  if (!opts.fresh) seedDataDir(opts.dataDir, { ...process.env, ...opts.env });
  const port = opts.port ?? (await freePort());
  let output = '';
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...(opts.nodeArgs ?? []), 'bin/hop-server'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      HOP_DATA_DIR: opts.dataDir,
      HOP_LOG_LEVEL: process.env.HOP_TEST_LOG_LEVEL ?? 'warn',
      ...(process.env.HOP_TEST_SECRET ? { HOP_SECRET: process.env.HOP_TEST_SECRET } : {}),
      ...(process.env.HOP_TEST_METRICS_TOKEN ? { HOP_METRICS_TOKEN: process.env.HOP_TEST_METRICS_TOKEN } : {}),
      // On PostgreSQL every server of a run shares one database, so their dispatchers compete for
      // the same deliveries, as a fleet's would: they must agree on how to deliver. Only servers
      // that may reach loopback receivers dispatch, all on the same scaled retry schedule.
      HOP_WEBHOOK_RETRY_SCALE: '0.01',
      ...(process.env.HOP_TEST_TLS_DIR ? { NODE_EXTRA_CA_CERTS: `${process.env.HOP_TEST_TLS_DIR}/cert.pem` } : {}),
      ...(opts.env?.HOP_ALLOW_PRIVATE_URLS === '1' ? {} : { HOP_DISABLE: 'dispatcher' }),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 0))));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let ready = false;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) {
        ready = true;
        break;
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`server did not become ready on ${url}:\n${output}`);
  }
  return {
    url,
    port,
    shortDomain: opts.env?.HOP_SHORT_DOMAIN ?? `localhost:${port}`,
    child,
    exited,
    output: () => output,
    /** SIGTERM, then the exit code (SIGKILL after 20 s). */
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
