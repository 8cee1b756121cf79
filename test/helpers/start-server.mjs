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

/**
 * The first port of the kernel's ephemeral range (Linux), from which it picks the local port of
 * every outbound connection and every listen(0); null where that cannot be read.
 */
function ephemeralPortsStart() {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) ? first : null;
  } catch {
    return null;
  }
}
const EPHEMERAL_START = ephemeralPortsStart();
const LOWEST_PORT = 10_000;

/** Listens on `port` of 127.0.0.1 (0: any) and closes again; the port, or null when it is taken. */
function probe(port) {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', (err) => (err.code === 'EADDRINUSE' || err.code === 'EACCES' ? resolve(null) : reject(err)));
    s.listen(port, '127.0.0.1', () => {
      const bound = s.address().port;
      s.close(() => resolve(bound));
    });
  });
}

/**
 * A loopback port free now, for a process started next to bind. It comes from below the kernel's
 * ephemeral range where that is known: a port from inside it (what listen(0) gives) can be taken
 * by any outbound connection on the machine (a load generator's thousands of them) between this
 * check and the other process's bind.
 */
export async function freePort() {
  if (EPHEMERAL_START !== null && EPHEMERAL_START > LOWEST_PORT + 1000) {
    for (let i = 0; i < 50; i++) {
      const port = await probe(LOWEST_PORT + Math.floor(Math.random() * (EPHEMERAL_START - LOWEST_PORT)));
      if (port !== null) return port;
    }
  }
  return probe(0);
}

/**
 * An embedded server's empty data directory gets a copy of the run's migrated database
 * (embedded-template.mjs), unless `fresh`.
 * @param {{ dataDir: string, env?: Record<string, string>, port?: number, timeoutMs?: number, nodeArgs?: string[], fresh?: boolean }} opts
 */
export async function startServer(opts) {
  if (!opts.fresh) seedDataDir(opts.dataDir, { ...process.env, ...opts.env });
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await freePort());
    const started = await launch(opts, port);
    if (started.server) return started.server;
    // Another process bound the port between freePort's check and the server's own bind (the
    // server then exits naming it): another port is tried. A port the caller chose is kept.
    if (opts.port === undefined && attempt < 3 && /port \d+ is in use/.test(started.output)) continue;
    throw new Error(`server did not become ready on http://127.0.0.1:${port}:\n${started.output}`);
  }
}

/**
 * Servers still running when this process exits: a test file that ends early (a timeout under
 * `--test-force-exit`, an uncaught error) must not leave its servers running after it.
 */
const children = new Set();
process.once('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts `bin/hop-server` on `port`: the server once ready, or else its output. */
async function launch(opts, port) {
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
  children.add(child);
  child.once('exit', () => children.delete(child));
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
    await exited;
    return { server: null, output };
  }
  return { server: {
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
  } };
}
