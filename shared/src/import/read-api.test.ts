// The source reader over fetch against a loopback server, its waits recorded by an injected sleep.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SOURCES } from './sources/index.js';
import { getSourceJson, SourceAuthError, SourceError, type SourceGet } from './read-api.js';

const get: SourceGet = async (req) => {
  const res = await fetch(req.url, { headers: req.headers });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
};
const getJson = (source: Parameters<typeof getSourceJson>[0], req: Parameters<typeof getSourceJson>[1], opts: { sleep: (ms: number) => Promise<void>; attempts?: number }) =>
  getSourceJson(source, req, { get, ...opts });

const script: { status: number; headers?: Record<string, string>; body?: string }[] = [];
const server = createServer((_req, res) => {
  const next = script.shift() ?? { status: 200 };
  res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
  res.end(next.body ?? '{"ok":true}');
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
after(() => server.close());
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
const req = { url, headers: {}, what: 'page 1' };

function recorder() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

test('a 429 waits for its Retry-After (seconds or a date), or backs off without one; a 5xx backs off', async () => {
  const r = recorder();
  script.push({ status: 429, headers: { 'retry-after': '7' } }, { status: 429 }, { status: 502 }, { status: 503 }, { status: 200 });
  assert.deepEqual(await getJson(SOURCES.dub, req, { sleep: r.sleep }), { ok: true });
  assert.deepEqual(r.waits, [7000, 1000, 2000, 4000]);
  const when = new Date(Date.now() + 30_000).toUTCString();
  const d = recorder();
  script.push({ status: 429, headers: { 'retry-after': when } });
  await getJson(SOURCES.dub, req, { sleep: d.sleep });
  assert.ok(d.waits[0] > 28_000 && d.waits[0] <= 30_000, String(d.waits[0]));
});

test('a 5xx that lasts gives up after the tries; a long Retry-After is not waited for; a refused token stops at once', async () => {
  const r = recorder();
  script.push(...Array.from({ length: 3 }, () => ({ status: 500 })));
  await assert.rejects(getJson(SOURCES.shlink, req, { sleep: r.sleep, attempts: 3 }), (err) => err instanceof SourceError && /still failing after 3 tries \(HTTP 500/.test(err.message));
  assert.deepEqual(r.waits, [500, 1000]);
  script.push({ status: 429, headers: { 'retry-after': '3600' } });
  await assert.rejects(getJson(SOURCES.shlink, req, { sleep: r.sleep }), /rate limited for 3600 s/);
  const a = recorder();
  script.push({ status: 401, body: '{"error":{"code":"unauthorized","message":"Unauthorized: Access token expired."}}' });
  await assert.rejects(getJson(SOURCES.dub, req, { sleep: a.sleep }), (err) => err instanceof SourceAuthError && /dub refused the token \(HTTP 401: Unauthorized: Access token expired\.\) while reading page 1/.test(err.message));
  assert.deepEqual(a.waits, []);
  script.push({ status: 404, body: '{"message":"NOT_FOUND"}' });
  await assert.rejects(getJson(SOURCES.bitly, req, { sleep: a.sleep }), /bitly: page 1: HTTP 404: NOT_FOUND/);
});
