#!/usr/bin/env node
// `hop links import --from dub` of 10,000 links, read from a loopback fixture answering in Dub's
// format (GET /links, 100 a page, as the importer asks) and written through the bulk endpoint,
// against the plain CSV import of the same 10,000 links (`hop links import file.csv`: no source to
// read, no plan), each into a fresh workspace, alternately, in the same run. Both are the real CLI
// as a child process; the figure is its wall time. Each run's links are counted afterwards.
// Usage: node bench/import.mjs [postgres|embedded]   (default postgres)
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgres, root, seedLinks, startHop } from './lib/servers.mjs';
import { fmt, writeSection } from './lib/measure.mjs';

const mode = process.argv[2] ?? 'postgres';
const LINKS = Number(process.env.HOP_BENCH_LINKS ?? 10_000);
const ROUNDS = 2;
const TOKEN = 'bench-dub-token';
const scratch = mkdtempSync(join(tmpdir(), 'hop-bench-import-'));

const linksOf = (prefix) => Array.from({ length: LINKS }, (_, i) => ({
  key: `${prefix}${i}`, url: `https://example.com/blog/post-${i}?utm_source=bench`, title: `Post ${i}`, tags: ['bench', i % 2 ? 'odd' : 'even'],
  clicks: i * 3, createdAt: new Date(Date.UTC(2021, 0, 1) + i * 60_000).toISOString(),
}));

/** Dub's GET /links for the round's prefix (the token names it), 100 a page. */
function startDubFixture() {
  const sets = new Map();
  const server = createServer((req, res) => {
    const u = new URL(req.url, 'http://127.0.0.1');
    const links = sets.get(req.headers.authorization);
    if (!links) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'Unauthorized: Invalid API key.' } }));
    }
    const page = Number(u.searchParams.get('page') ?? 1);
    const size = Number(u.searchParams.get('pageSize') ?? 100);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(links.slice((page - 1) * size, page * size).map((l) => ({
      id: `link_${l.key}`, domain: 'dub.sh', key: l.key, url: l.url, title: l.title, description: null, archived: false, expiresAt: null, expiredUrl: null,
      password: null, proxy: false, ios: null, android: null, geo: null, tags: l.tags.map((name) => ({ id: name, name, color: 'blue' })), clicks: l.clicks, createdAt: l.createdAt,
    }))));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}`,
    serve: (prefix) => sets.set(`Bearer ${TOKEN}-${prefix}`, linksOf(prefix)),
    close: () => new Promise((r) => server.close(r)),
  })));
}

/** The CLI's wall time and exit code. */
function hop(args, env) {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'hop'), ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, seconds: Number(process.hrtime.bigint() - started) / 1e9, stderr }));
  });
}

const pg = mode === 'postgres' ? freshPostgres() : null;
const server = await startHop({ DATABASE_URL: pg ? pg.url : '' });
const dub = await startDubFixture();
try {
  /** The workspace's links, counted through the list's pages. */
  const count = async (token, workspaceId) => {
    let n = 0;
    let cursor = '';
    do {
      const res = await fetch(`${server.url}/v1/workspaces/${workspaceId}/links?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
      const body = await res.json();
      n += body.data.length;
      cursor = body.pagination.nextCursor;
    } while (cursor);
    return n;
  };
  const times = { csv: [], dub: [] };
  const created = { csv: 0, dub: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of ['csv', 'dub']) {
      const { token, workspaceId } = await seedLinks(server.url, 0);
      const prefix = `${kind}${round}x`;
      const env = { HOP_API_URL: server.url, HOP_API_KEY: token, HOP_WORKSPACE: workspaceId, HOP_CONFIG_DIR: join(scratch, `${kind}${round}`) };
      let args;
      if (kind === 'csv') {
        const file = join(scratch, `${prefix}.csv`);
        writeFileSync(file, `url,slug,title,tags\n${linksOf(prefix).map((l) => `${l.url},${l.key},${l.title},"${l.tags.join(',')}"`).join('\n')}\n`);
        args = ['links', 'import', file];
      } else {
        dub.serve(prefix);
        args = ['links', 'import', '--from', 'dub', '--url', dub.url, '--token', `${TOKEN}-${prefix}`];
      }
      const r = await hop(args, env);
      if (r.code !== 0) throw new Error(`${kind} import exited ${r.code}: ${r.stderr.slice(-500)}`);
      times[kind].push(r.seconds);
      const n = await count(token, workspaceId);
      created[kind] += n ?? 0;
      console.log(`${kind} round ${round + 1}: ${fmt(r.seconds, 1)} s, ${n ?? '?'} links`);
    }
  }
  const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const csv = avg(times.csv);
  const imp = avg(times.dub);
  const lines = [
    `Database: ${mode}. ${fmt(LINKS)} links a run, ${ROUNDS} alternating runs of each, every run into a fresh workspace; the real CLI (\`bin/hop\`) as a child process, its wall time from start to exit. The Dub import reads a loopback fixture in Dub's format (100 links a page: slug, destination, title, two tags, clicks, creation time), plans against the workspace's links, then writes 100 a request through the bulk endpoint; the CSV import writes the same links from a file. Load average ${loadavg().map((l) => fmt(l, 1)).join(', ')} at the end.`,
    '',
    '| | seconds | links/s | links created |',
    '|---|---|---|---|',
    `| \`hop links import file.csv\` (baseline) | ${fmt(csv, 1)} | ${fmt(LINKS / csv)} | ${fmt(created.csv)} of ${fmt(LINKS * ROUNDS)} |`,
    `| \`hop links import --from dub\` | ${fmt(imp, 1)} | ${fmt(LINKS / imp)} | ${fmt(created.dub)} of ${fmt(LINKS * ROUNDS)} |`,
    `| **ratio** | **${fmt(imp / csv, 2)}x** the baseline's time | | **${fmt(imp, 0)} s for ${fmt(LINKS)}** (target < 60 s) |`,
    '',
    `Each run: CSV ${times.csv.map((t) => fmt(t, 1)).join(', ')} s; Dub ${times.dub.map((t) => fmt(t, 1)).join(', ')} s.`,
  ].join('\n');
  console.log(lines);
  writeSection(`Import from another shortener (${mode})`, lines);
  if (created.csv !== LINKS * ROUNDS || created.dub !== LINKS * ROUNDS || imp >= 60) process.exitCode = 1;
} finally {
  await dub.close();
  await server.stop();
  pg?.drop();
  rmSync(scratch, { recursive: true, force: true });
}
