// The server as a process: configuration errors, the data-directory lock, concurrent starts on one
// database, and a graceful SIGTERM that flushes buffered clicks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createHopClient } from '@hop/shared/client';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { eventually, pause } from '../helpers/api.js';

// Visits from bots do not count; these tests visit as a browser.
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const root = new URL('../..', import.meta.url).pathname;
const tempDir = () => scratchDir('hop-lifecycle-');

test('a wrong configuration value stops the server at start, naming the variable', () => {
  const res = spawnSync(process.execPath, ['bin/hop-server'], {
    cwd: root,
    env: { ...process.env, PORT: 'eighty', HOP_DATA_DIR: tempDir() },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(res.status, 2);
  assert.match(res.stderr, /PORT/);
  const res2 = spawnSync(process.execPath, ['bin/hop-server'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOP_SHORT_SCHEME: 'gopher', HOP_DATA_DIR: tempDir() },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(res2.status, 2);
  assert.match(res2.stderr, /HOP_SHORT_SCHEME/);
});

test('a second server on the same embedded data directory refuses to start', { skip: !!process.env.DATABASE_URL && 'embedded only' }, async () => {
  const dataDir = tempDir();
  // From an empty directory, where other tests start from the run's migrated copy: initdb and every
  // migration take about twice a start's CPU on top of it, hence the longer wait for readiness.
  const first = await startServer({ dataDir, fresh: true, timeoutMs: 150_000, env: { DATABASE_URL: '' } });
  try {
    const res = spawnSync(process.execPath, ['bin/hop-server'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', PORT: '0', HOP_DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /in use by process/);
    // The first is unharmed.
    assert.equal((await fetch(`${first.url}/readyz`)).status, 200);
  } finally {
    assert.equal(await first.stop(), 0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the embedded database thread yields the CPU to the thread answering redirects', {
  skip: (!!process.env.DATABASE_URL && 'embedded only') || (process.platform !== 'linux' && 'thread priorities are read from /proc'),
}, async () => {
  const dataDir = tempDir();
  const server = await startServer({ dataDir, env: { DATABASE_URL: '' } });
  try {
    // Field 19 of a thread's stat is its nice value; the command name may hold spaces, hence after ')'.
    const niceOf = (task: string) => Number(readFileSync(`/proc/${server.child.pid}/task/${task}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
    const main = niceOf(String(server.child.pid));
    const niced = readdirSync(`/proc/${server.child.pid}/task`).map(niceOf).filter((n) => n > main);
    // One thread, PGlite's, runs ten steps nicer; the main thread keeps the process's priority.
    assert.deepEqual(niced, [Math.min(19, main + 10)]);
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
  } finally {
    assert.equal(await server.stop(), 0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('two servers starting at once on one PostgreSQL both migrate and serve', { skip: !process.env.DATABASE_URL && 'PostgreSQL only' }, async () => {
  const [a, b] = await Promise.all([startServer({ dataDir: tempDir() }), startServer({ dataDir: tempDir() })]);
  try {
    for (const s of [a, b]) assert.equal((await fetch(`${s.url}/readyz`)).status, 200);
  } finally {
    const codes = await Promise.all([a.stop(), b.stop()]);
    assert.deepEqual(codes, [0, 0]);
  }
});

// libpq's way of naming a Unix socket: the directory as a `host` parameter (README, DATABASE_URL).
const SOCKET_DIR = '/var/run/postgresql';
const tcpPort = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL).port || '5432' : '';
test('DATABASE_URL may name PostgreSQL\'s Unix socket by its directory', {
  skip: (!process.env.DATABASE_URL && 'PostgreSQL only') || (!existsSync(`${SOCKET_DIR}/.s.PGSQL.${tcpPort}`) && `no socket in ${SOCKET_DIR} for port ${tcpPort}`),
}, async () => {
  const tcp = new URL(process.env.DATABASE_URL!);
  const url = `postgresql://${tcp.username}@:${tcpPort}${tcp.pathname}?host=${SOCKET_DIR}`;
  const server = await startServer({ dataDir: tempDir(), env: { DATABASE_URL: url } });
  try {
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    const anon = createHopClient({ baseUrl: server.url });
    const { data } = await anon.call('signup', { body: { email: `socket-${Date.now()}@example.test`, password: 'password-123', name: 'S' } });
    assert.ok(data.token);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

test('SIGTERM finishes in flight, writes buffered clicks, and exits 0', async () => {
  const dataDir = tempDir();
  // A long flush interval: the clicks can only reach the database through the shutdown flush.
  const env = { HOP_CLICK_FLUSH_MS: '1000' };
  const server = await startServer({ dataDir, env });
  const anon = createHopClient({ baseUrl: server.url });
  const { data: auth } = await anon.call('signup', {
    body: { email: `sigterm-${Date.now()}@example.test`, password: 'password-123', name: 'S' },
  });
  const api = createHopClient({ baseUrl: server.url, token: auth.token });
  const { data: ws } = await api.call('createWorkspace', { body: { name: 'S', slug: `sigterm-${Date.now()}` } });
  const { data: link } = await api.call('createLink', { params: { workspaceId: ws.id }, body: { url: 'https://example.com/' } });
  const path = new URL(link.shortUrl).pathname;
  for (let i = 0; i < 5; i++) {
    const res = await fetch(server.url + path, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
    assert.equal(res.status, 302);
  }
  assert.equal(await server.stop(), 0);

  const again = await startServer({ dataDir, env, port: server.port });
  try {
    const api2 = createHopClient({ baseUrl: again.url, token: auth.token });
    // Written by the shutdown flush; the aggregation job counts them a moment after the restart
    // (a link's `clicks` may lag by a few seconds), and then it must stay at exactly 5.
    const read = async () => (await api2.call('getLink', { params: { workspaceId: ws.id, linkId: link.id } })).data.clicks;
    await eventually(async () => ((await read()) >= 5 ? true : undefined), 20_000, '5 clicks counted after the restart');
    await pause(1500);
    assert.equal(await read(), 5);
  } finally {
    assert.equal(await again.stop(), 0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
