// A restart under load: the server loads the links visited most before it takes traffic, so the
// first visit of a recently clicked link after a restart is a cache hit; a link nobody visited
// still loads on its first visit. The start says what it loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { METRICS_AUTH, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';

const metric = async (url: string, line: RegExp) => {
  const text = await (await fetch(`${url}/metrics`, { headers: METRICS_AUTH })).text();
  const m = text.split('\n').find((l) => line.test(l));
  return m ? Number(m.split(' ').at(-1)) : undefined;
};
const HITS = /^hop_redirect_cache_lookups\{result="hit"\}/;
const MISSES = /^hop_redirect_cache_lookups\{result="miss"\}/;

test('after a restart the first visit of a recently clicked link is a cache hit', { timeout: 300_000 }, async () => {
  const dataDir = scratchDir('hop-warm-up-');
  // A short domain of its own: the default (localhost:PORT) would change with the port.
  const env = { HOP_LOG_LEVEL: 'info', HOP_CLICK_FLUSH_MS: '100', HOP_SHORT_DOMAIN: 'warm-up.test' };
  let server = await startServer({ dataDir, env });
  let visited: string;
  let unvisited: string;
  try {
    const t = await team('free', server.url);
    const ws = { workspaceId: t.workspaceId };
    const links = await Promise.all(['warm', 'cold'].map(async (name) => (await t.api.call('createLink', { params: ws, body: { url: `https://example.com/${name}` } })).data));
    [visited, unvisited] = links.map((l) => new URL(l.shortUrl).pathname);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}${visited}`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/127.0' } });
      assert.equal(res.status, 302);
    }
    await eventually(async () => ((await metric(server.url, /^hop_click_buffer_depth /)) === 0 ? true : undefined), 10_000, 'the visits written');
  } finally {
    assert.equal(await server.stop(), 0);
  }

  // Reopening a database takes longer than copying the run's template: more time to be ready.
  server = await startServer({ dataDir, env, timeoutMs: 150_000 });
  try {
    assert.match(server.output(), /redirect cache warmed: [1-9]\d* recently visited links loaded/);
    assert.equal(await metric(server.url, HITS), 0);
    const warm = await fetch(`${server.url}${visited}`, { redirect: 'manual' });
    assert.equal(warm.status, 302);
    assert.equal(await metric(server.url, HITS), 1, 'the first visit after the restart was a cache hit');
    assert.equal(await metric(server.url, MISSES), 0);
    const cold = await fetch(`${server.url}${unvisited}`, { redirect: 'manual' });
    assert.equal(cold.status, 302);
    assert.equal(await metric(server.url, MISSES), 1, 'a link nobody visited loads on its first visit');
  } finally {
    await server.stop();
  }
});
