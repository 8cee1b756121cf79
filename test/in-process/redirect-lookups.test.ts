// A redirect's cache misses while the embedded database is held (a transaction left open, as a
// long job's would be): concurrent misses of one link make one lookup, misses of many links few
// statements, a lookup past its timeout answers 503 with Retry-After, the oldest lookup's age is a
// metric that answers meanwhile (its rate-limit count waiting for the store at most a second), and
// a cached link is redirected without waiting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdDatabase, inProcessApi, type InProcessApi } from '../helpers/in-process.js';

const METRICS_TOKEN = 'lookup-metrics-token-0123456789';

async function metric(api: InProcessApi, name: string): Promise<number> {
  const res = await api.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(res.statusCode, 200);
  const line = res.body.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `${name} on /metrics`);
  return Number(line.split(' ')[1]);
}

async function linksOf(api: InProcessApi, n: number): Promise<string[]> {
  const email = `lookups-${Date.now()}@example.test`;
  const signup = await api.request('POST', '/v1/auth/signup', { body: { email, password: 'correct horse battery', name: 'Owner' } });
  const token = signup.body.data.token as string;
  const ws = await api.request('POST', '/v1/workspaces', { token, body: { name: 'Lookups', slug: `lookups-${Date.now()}` } });
  const body = Array.from({ length: n }, (_, i) => ({ url: `https://example.com/lookup/${i}`, slug: `lk${i}-${Date.now().toString(36)}` }));
  const created = await api.request('POST', `/v1/workspaces/${ws.body.data.id}/links/bulk`, { token, body });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return body.map((l) => l.slug);
}

const visit = (api: InProcessApi, slug: string, headers: Record<string, string> = {}) =>
  api.app.inject({ method: 'GET', url: `/${slug}`, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/127.0', ...headers } });

test('concurrent misses coalesce into one lookup per link and few statements; a stalled lookup answers 503 with Retry-After', { timeout: 180_000 }, async () => {
  // At the plain rate limits every /metrics request's count goes to the counter store, the held
  // database: /metrics must answer all the same (about 20 requests here, within the 30 a minute).
  const api = await inProcessApi({
    HOP_METRICS_TOKEN: METRICS_TOKEN, HOP_LINK_LOOKUP_TIMEOUT_MS: '400', HOP_DISABLE: 'jobs', HOP_RATE_LIMIT_SCALE: '1',
  });
  let db: Awaited<ReturnType<typeof holdDatabase>> | undefined;
  try {
    const slugs = await linksOf(api, 22);
    const [cached, one, ...many] = slugs;
    assert.equal((await visit(api, cached)).statusCode, 302);

    const queries = await metric(api, 'hop_link_lookup_queries_total');
    const looked = await metric(api, 'hop_link_lookups_total');
    db = await holdDatabase(api.services.db);
    // Thirty visitors of one uncached link, and one each of twenty others, while the database is held.
    const visits = [...Array.from({ length: 30 }, () => visit(api, one)), ...many.map((s) => visit(api, s))];
    const visitsDone = Promise.all(visits);
    await new Promise((r) => setImmediate(r));
    // The cached link is answered at once, the database held or not.
    const hit = await visit(api, cached);
    assert.equal(hit.statusCode, 302);
    // The oldest lookup's age is on /metrics while the database is held.
    await new Promise((r) => setTimeout(r, 150));
    assert.ok((await metric(api, 'hop_link_lookup_oldest_seconds')) >= 0.1, 'the waiting lookup\'s age');
    assert.equal(await metric(api, 'hop_link_lookup_pending'), 21);

    // Past the timeout every waiting visit answers 503 with Retry-After, in the contract's shape when asked for JSON.
    const answered = await visitsDone;
    for (const res of answered) {
      assert.equal(res.statusCode, 503);
      assert.ok(Number(res.headers['retry-after']) >= 1, 'Retry-After in seconds');
    }
    const json = await visit(api, one, { accept: 'application/json' });
    assert.equal(json.statusCode, 503);
    assert.equal(json.json().error.code, 'SERVICE_UNAVAILABLE');
    assert.ok(await metric(api, 'hop_link_lookup_timeouts_total') >= 51);

    assert.equal(await metric(api, 'hop_link_lookups_total') - looked, 21, 'one lookup per link, however many visitors asked');
    assert.equal(await metric(api, 'hop_link_lookup_queries_total') - queries, 1, 'one statement out, any other misses gathering behind it');

    await db.release();
    // The lookups go on after their visitors stopped waiting: those that gathered go in one statement.
    for (let i = 0; i < 100 && (await metric(api, 'hop_link_lookup_pending')) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await metric(api, 'hop_link_lookup_pending'), 0);
    assert.equal(await metric(api, 'hop_link_lookup_oldest_seconds'), 0);
    const statements = await metric(api, 'hop_link_lookup_queries_total') - queries;
    assert.ok(statements <= 2, `21 links in ${statements} statements: those that gathered went together`);
    for (const s of [one, ...many]) assert.equal((await visit(api, s)).statusCode, 302, s);
  } finally {
    await db?.release();
    await api.close();
  }
});
