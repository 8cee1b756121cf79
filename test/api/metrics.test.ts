import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, METRICS_AUTH, eventually, metricValue, team, visit } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';

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
