import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, API_URL, METRICS_AUTH, eventually, metricSum, metricValue, team, visit } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { ownDatabase } from '../helpers/own-database.js';

test('GET /metrics exposes request, redirect-cache, click-buffer, roll-up and delivery metrics in Prometheus format', async () => {
  const t = await team();
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/m' } });
  for (let i = 0; i < 3; i++) assert.equal((await visit(link.shortUrl)).status, 302);
  const res = await fetch(`${API_URL}/metrics`, { headers: METRICS_AUTH });
  assert.equal(res.status, 200);
  assert.match(String(res.headers.get('content-type')), /^text\/plain/);
  const text = await res.text();
  assert.ok((metricValue(text, /^hop_http_requests_total\{route="\/:slug",method="GET",status="302"\}/) ?? 0) >= 3, 'redirects counted by route pattern');
  assert.ok((metricValue(text, /^hop_http_requests_total\{route="\/v1\/workspaces\/:workspaceId\/links",method="POST",status="201"\}/) ?? 0) >= 1);
  assert.ok((metricValue(text, /^hop_redirect_cache_lookups\{result="hit"\}/) ?? 0) >= 2, 'later visits hit the cache');
  for (const name of ['hop_click_buffer_depth', 'hop_click_write_seconds', 'hop_click_rollup_pending', 'hop_click_counters_pending', 'hop_click_events_pending', 'hop_redirect_cache_entries', 'hop_webhook_delivery_lag_seconds']) {
    assert.notEqual(metricValue(text, new RegExp(`^${name} `)), undefined, name);
  }
  assert.notEqual(metricValue(text, /^hop_webhook_deliveries\{status="pending"\}/), undefined);
  // Ended deliveries are counted as they end (hop_webhook_delivery_attempts_total), never from the table.
  assert.doesNotMatch(text, /^hop_webhook_deliveries\{status="(succeeded|failed)"\}/m);
  assert.match(text, /^hop_http_request_duration_seconds_bucket\{le="0\.005",route="\/:slug"\}/m);
  // Every visit's latency, the fast path's and the router's, under the route; buckets cumulative.
  const count = metricValue(text, /^hop_http_request_duration_seconds_count\{route="\/:slug"\}/) ?? 0;
  assert.ok(count >= 3, 'redirect latencies counted');
  assert.equal(metricValue(text, /^hop_http_request_duration_seconds_bucket\{le="\+Inf",route="\/:slug"\}/), count);
  assert.ok((metricValue(text, /^hop_http_request_duration_seconds_bucket\{le="2\.5",route="\/:slug"\}/) ?? 0) <= count);
  assert.ok((metricValue(text, /^hop_http_request_duration_seconds_sum\{route="\/:slug"\}/) ?? -1) > 0);
  assert.match(text, /^# TYPE hop_http_request_duration_seconds histogram$/m);
  assert.ok(!text.includes(link.slug), 'labels hold route patterns, never slugs');
});

test('delivery attempts are counted by outcome in the process that recorded them: succeeded, retry, failed', { timeout: 60_000 }, async () => {
  // A database of the server's own (on PostgreSQL): no other server of the run can take its deliveries.
  const db = await ownDatabase();
  const receiver = await startReceiver({ respond: (r) => (r.path === '/ok' ? 204 : 500) });
  const server = await startServer({ dataDir: scratchDir('hop-metrics-wh-'), env: { ...db.env, HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
  try {
    const attempts = async (outcome: string) => metricSum(server.url, 'hop_webhook_delivery_attempts_total', { outcome });
    // Every outcome is there from the start, at 0, so that a rate over it begins at the first scrape.
    const text = await (await fetch(`${server.url}/metrics`, { headers: METRICS_AUTH })).text();
    for (const outcome of ['succeeded', 'retry', 'failed']) {
      assert.equal(metricValue(text, new RegExp(`^hop_webhook_delivery_attempts_total\\{outcome="${outcome}"\\}`)), 0, outcome);
    }
    assert.match(text, /^# TYPE hop_webhook_delivery_attempts_total counter$/m);

    const t = await team('pro', server.url);
    for (const path of ['/ok', '/fail']) {
      await t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url: `${receiver.url}${path}`, events: ['link.created'] } });
    }
    await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/counted' } });
    // The failing endpoint is tried five times (the schedule, shrunk for tests), then the delivery fails.
    await eventually(async () => ((await attempts('failed')) >= 1 ? true : undefined), 30_000, 'the failing delivery to end');
    const sent = (path: string) => receiver.received.filter((r) => r.path === path).length;
    assert.equal(sent('/ok'), 1);
    assert.equal(sent('/fail'), 5);
    assert.equal(await attempts('succeeded'), 1);
    assert.equal(await attempts('retry'), 4);
    assert.equal(await attempts('failed'), 1);
    assert.equal(await metricSum(server.url, 'hop_webhook_deliveries', { status: 'pending' }), 0);
  } finally {
    await server.stop();
    await receiver.close();
    await db.drop();
  }
});

test('job runs are counted by job and outcome, with their duration', async () => {
  const server = await startServer({ dataDir: scratchDir('hop-metrics-'), env: { HOP_EXPIRY_CHECK_MS: '200' } });
  try {
    const ran = await eventually(async () => {
      const text = await (await fetch(`${server.url}/metrics`, { headers: METRICS_AUTH })).text();
      const n = metricValue(text, /^hop_job_runs_total\{job="link-expiry",outcome="ran"\}/) ?? 0;
      return n >= 2 ? text : undefined;
    }, 10_000, 'two expiry runs');
    assert.ok((metricValue(ran, /^hop_job_duration_seconds_count\{job="link-expiry"\}/) ?? 0) >= 2);
  } finally {
    await server.stop();
  }
});

test('GET /metrics answers only to Authorization: Bearer <HOP_METRICS_TOKEN>', async () => {
  for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: METRICS_AUTH.authorization.replace('Bearer ', 'Basic ') }]) {
    const res = await fetch(`${API_URL}/metrics`, { headers });
    assert.equal(res.status, 401, JSON.stringify(headers));
    const body = await res.json();
    assert.equal(body.error.code, 'UNAUTHORIZED');
    assert.match(String(res.headers.get('www-authenticate')), /^Bearer /);
  }
  assert.equal((await fetch(`${API_URL}/metrics`, { headers: METRICS_AUTH })).status, 200);
});

test('without HOP_METRICS_TOKEN, /metrics does not exist (404), even to a Bearer token', async () => {
  const server = await startServer({ dataDir: scratchDir('hop-metrics-off-'), env: { HOP_METRICS_TOKEN: '' } });
  try {
    for (const headers of [{}, METRICS_AUTH]) {
      const res = await fetch(`${server.url}/metrics`, { headers });
      assert.equal(res.status, 404);
      assert.equal((await res.json()).error.code, 'NOT_FOUND');
    }
  } finally {
    await server.stop();
  }
});
