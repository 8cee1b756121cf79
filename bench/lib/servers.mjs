// Servers for benchmarks: Hop itself (embedded or PostgreSQL), a bare Fastify baseline, and a
// fresh PostgreSQL database. Everything on loopback, started and stopped by the benchmark.
import { spawn, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, freePort } from '../../test/helpers/start-server.mjs';
import { scratchDir } from '../../test/helpers/scratch-dir.mjs';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** A fresh PostgreSQL database on the local server; dropped by the returned function. */
export function freshPostgres() {
  const name = `hop_bench_${process.pid}_${Date.now()}`;
  execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-qc', `create database ${name}`]);
  return {
    name,
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: () => execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-qc', `drop database if exists ${name} with (force)`]),
  };
}

/** GET /metrics answers only to this token on the benchmarks' servers. */
export const METRICS_TOKEN = 'bench-metrics-token-0123456789';
export const METRICS_AUTH = { authorization: `Bearer ${METRICS_TOKEN}` };

/** A gauge or counter without labels from a server's /metrics; null when it is not there (or the server is not answering). */
export async function metricValue(url, name) {
  return (await metricValues(url, [name]))[0];
}

/**
 * Several gauges or counters from one scrape: a scrape is the server's CPU too, and a benchmark
 * that counts the server's CPU should not pay for one per metric.
 */
export async function metricValues(url, names) {
  const text = await fetch(`${url}/metrics`, { headers: METRICS_AUTH }).then((r) => r.text()).catch(() => '');
  return names.map((name) => {
    const m = new RegExp(`^${name} (\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  });
}

/** Visits answered on the redirector's fast path so far (NaN when the counter cannot be read). */
export const fastPathVisits = async (url) => (await metricValue(url, 'hop_redirect_fast_path_total')) ?? NaN;

export async function startHop(env = {}, nodeArgs = [], at = { dataDir: scratchDir('hop-bench-') }) {
  const server = await startServer({
    nodeArgs,
    dataDir: at.dataDir,
    port: at.port,
    env: { HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_METRICS_TOKEN: METRICS_TOKEN, HOP_LOG_LEVEL: 'error', HOP_RATE_LIMITS: 'off', ...env },
    timeoutMs: 120_000,
  });
  return {
    ...server,
    /**
     * Stops this server (SIGTERM: it writes what it buffered) and starts another on the same data
     * and port (the default short domain names the port): a deploy's restart.
     */
    async restart() {
      await server.stop();
      return startHop(env, nodeArgs, { dataDir: at.dataDir, port: server.port });
    },
  };
}

/** A bare Fastify answering every path with a fixed 302: the fastest a redirector can be here. */
export async function startBaseline() {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', `
    const app = require('fastify')();
    app.get('/:slug', (req, reply) => reply.code(302).header('location', 'https://example.com/').header('cache-control', 'private, no-store').send());
    app.listen({ port: ${port}, host: '127.0.0.1' }).then(() => console.log('ready'));
  `], { cwd: join(root, 'server'), stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) };
}

async function call(base, method, path, { token, body } = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A user with a pro workspace, and `count` links made through the bulk API. */
export async function seedLinks(base, count) {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
  const { token } = await call(base, 'POST', '/v1/auth/signup', { body: { email, password: 'bench-password-1', name: 'Bench' } });
  const ws = await call(base, 'POST', '/v1/workspaces', { token, body: { name: 'Bench', slug: `bench-${Date.now()}` } });
  await fetch(`${base}/v1/admin/workspaces/${ws.id}`, {
    method: 'PATCH', headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN }, body: JSON.stringify({ plan: 'business' }),
  });
  const slugs = [];
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, (_, j) => ({ url: `https://example.com/page/${i + j}?ref=bench`, slug: `b${i + j}` }));
    const results = await call(base, 'POST', `/v1/workspaces/${ws.id}/links/bulk`, { token, body: batch });
    for (const r of results) if (r.success) slugs.push(r.data.slug);
  }
  return { token, workspaceId: ws.id, slugs };
}

export const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
];
export const REFERRERS = ['https://www.google.com/', 'https://t.co/abc', 'https://news.ycombinator.com/item?id=1', '', 'https://github.com/hop'];

/** One of `xs`, at random. */
export const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];

/** autocannon's `requests` for visits to random slugs, each with a random user agent and referrer. */
export function randomVisits(slugs) {
  return [{
    setupRequest: (req) => {
      const referer = pick(REFERRERS);
      return { ...req, path: `/${pick(slugs)}`, headers: { 'user-agent': pick(USER_AGENTS), ...(referer ? { referer } : {}) } };
    },
  }];
}
