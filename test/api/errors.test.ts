// docs/api.md, Wire conventions: the wire conventions on every answer — envelope, error shape, bad JSON, unknown fields,
// wrong types, body limit, unknown routes, no stack traces, X-Request-Id, timestamps and ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anonymous, assertErrorShape, idPattern, ISO_MS, rawFails, send, succeeds, team } from '../helpers/api.js';

const json = { 'content-type': 'application/json' };

test('bad JSON answers 400 VALIDATION_ERROR with details.issues, on public and authenticated routes', async () => {
  const t = await team();
  for (const rawBody of ['{bad', '{"url": "https://example.com/",}', '[', 'undefined', "{'a':1}"]) {
    const e1 = await rawFails(anonymous, 'POST', '/v1/auth/signup', { rawBody, headers: json }, 'VALIDATION_ERROR', 400);
    assert.ok((e1.details.issues as unknown[]).length >= 1);
    await rawFails(t.api, 'POST', `/v1/workspaces/${t.workspaceId}/links`, { rawBody, headers: json }, 'VALIDATION_ERROR', 400);
    await rawFails(t.api, 'PATCH', `/v1/workspaces/${t.workspaceId}`, { rawBody, headers: json }, 'VALIDATION_ERROR', 400);
  }
  // An empty JSON body where one is required.
  await rawFails(t.api, 'POST', `/v1/workspaces/${t.workspaceId}/links`, { rawBody: '', headers: json }, 'VALIDATION_ERROR', 400);
});

test('unknown fields and wrong types answer 400 with the path of each issue', async () => {
  const t = await team();
  const path = `/v1/workspaces/${t.workspaceId}/links`;
  const unknown = await rawFails(t.api, 'POST', path, { body: { url: 'https://example.com/', colour: 'red' } }, 'VALIDATION_ERROR');
  assert.match(JSON.stringify(unknown.details.issues), /colour/);
  const types = await rawFails(t.api, 'POST', path, { body: { url: 'https://example.com/', title: 1, tags: 'x', maxClicks: '3' } }, 'VALIDATION_ERROR');
  const paths = (types.details.issues as { path: string }[]).map((i) => i.path);
  for (const p of ['title', 'tags', 'maxClicks']) assert.ok(paths.includes(p), `an issue at ${p}: ${paths}`);
  // Query strings and path parameters are checked too, and say where.
  const q = await rawFails(t.api, 'GET', `${path}?limit=0`, {}, 'VALIDATION_ERROR');
  assert.ok((q.details.issues as { path: string }[]).some((i) => /limit/.test(i.path)));
  const p = await rawFails(t.api, 'GET', `${path}/12345`, {}, 'VALIDATION_ERROR');
  assert.ok((p.details.issues as { path: string }[]).some((i) => /linkId/.test(i.path)));
});

test('a body over 1 MiB answers 413 PAYLOAD_TOO_LARGE; just under is read', async () => {
  const t = await team();
  const big = JSON.stringify({ url: 'https://example.com/', title: 'x'.repeat(1024 * 1024 + 10) });
  const res = await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { rawBody: big, headers: json });
  assertErrorShape(res, 'PAYLOAD_TOO_LARGE', 413);
  const pub = await anonymous.raw('POST', '/v1/auth/login', { rawBody: big, headers: json });
  assertErrorShape(pub, 'PAYLOAD_TOO_LARGE', 413);
  // Under the limit the body is parsed (and then refused for its over-long title, not its size).
  const under = JSON.stringify({ url: 'https://example.com/', title: 'x'.repeat(1024 * 1024 - 100) });
  assertErrorShape(await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { rawBody: under, headers: json }), 'VALIDATION_ERROR', 400);
});

test('a body of another media type is refused in the error shape', async () => {
  const t = await team();
  const res = await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { rawBody: 'url=https://example.com/', headers: { 'content-type': 'text/plain' } });
  assert.ok(res.status === 415 || res.status === 400, `415 or 400, not ${res.status}`);
  assertErrorShape(res, res.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR', res.status);
});

test('unknown routes and methods answer 404 NOT_FOUND in the error shape', async () => {
  const t = await team();
  for (const [method, path] of [
    ['GET', '/v1/nothing-here'], ['POST', '/v1/me'], ['DELETE', '/v1/workspaces'], ['GET', '/v2/workspaces'],
    ['PUT', `/v1/workspaces/${t.workspaceId}`], ['GET', '/v1/workspaces/a/b/c/d/e'],
  ] as const) {
    const err = assertErrorShape(await t.api.raw(method, path), 'NOT_FOUND', 404);
    assert.equal(err.details.resource, 'route');
  }
});

test('no credential answers 401 on every authenticated route of the table', async () => {
  const ws = 'ws_0000000000000000abcd';
  const calls: [string, string][] = [
    ['GET', '/v1/me'], ['GET', '/v1/workspaces'], ['POST', '/v1/workspaces'], [`GET`, `/v1/workspaces/${ws}`],
    ['PATCH', `/v1/workspaces/${ws}`], ['DELETE', `/v1/workspaces/${ws}`], ['GET', `/v1/workspaces/${ws}/members`],
    ['GET', `/v1/workspaces/${ws}/api-keys`], ['POST', `/v1/workspaces/${ws}/api-keys`],
    ['DELETE', `/v1/workspaces/${ws}/api-keys/key_0000000000000000abcd`],
    ['GET', `/v1/workspaces/${ws}/links`], ['POST', `/v1/workspaces/${ws}/links`], ['POST', `/v1/workspaces/${ws}/links/bulk`],
    ['GET', `/v1/workspaces/${ws}/links/lnk_0000000000000000abcd`], ['PATCH', `/v1/workspaces/${ws}/links/lnk_0000000000000000abcd`],
    ['DELETE', `/v1/workspaces/${ws}/links/lnk_0000000000000000abcd`], ['PATCH', '/v1/links/lnk_0000000000000000abcd'],
    ['POST', '/v1/invites/0123456789abcdef/accept'],
  ];
  for (const [method, path] of calls) {
    const body = method === 'GET' || method === 'DELETE' ? undefined : { anything: true };
    assertErrorShape(await anonymous.raw(method, path, { body }), 'UNAUTHORIZED', 401);
  }
});

test('every answer carries X-Request-Id: successes, errors, redirects, docs', async () => {
  const t = await team();
  const answers = [
    await t.api.raw('GET', '/v1/me'),
    await anonymous.raw('GET', '/v1/me'),
    await anonymous.raw('GET', '/v1/none'),
    await anonymous.raw('POST', '/v1/auth/login', { rawBody: '{bad', headers: json }),
    await anonymous.raw('GET', '/v1/openapi.json'),
    await anonymous.raw('GET', '/no-such-slug-here'),
  ];
  for (const res of answers) assert.match(String(res.headers['x-request-id']), /^[A-Za-z0-9._-]{8,64}$/);
  const ids = answers.map((r) => r.headers['x-request-id']);
  assert.equal(new Set(ids).size, ids.length, 'a fresh id per request');
  // A caller's sane id is echoed; a malformed one is replaced.
  const kept = await anonymous.raw('GET', '/v1/me', { headers: { 'x-request-id': 'client-trace-0001' } });
  assert.equal(kept.headers['x-request-id'], 'client-trace-0001');
  const replaced = await anonymous.raw('GET', '/v1/me', { headers: { 'x-request-id': 'bad id with spaces <script>' } });
  assert.match(String(replaced.headers['x-request-id']), /^req_[0-9A-Za-z]{16}$/);
});

test('success bodies are envelopes; timestamps are ISO UTC with milliseconds; ids carry prefixes', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const link = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/', expiresAt: '2099-01-02T03:04:05Z' } });
  assert.deepEqual(Object.keys(link.body).sort(), ['data', 'success']);
  assert.equal(link.body.data.expiresAt, '2099-01-02T03:04:05.000Z');
  assert.match(link.body.data.createdAt, ISO_MS);
  assert.match(link.body.data.id, idPattern('lnk'));
  const list = await succeeds(t.api, 'listLinks', { params });
  assert.deepEqual(Object.keys(list.body).sort(), ['data', 'pagination', 'success']);
  assert.deepEqual(Object.keys(list.body.pagination).sort(), ['limit', 'nextCursor']);
  const ws = await succeeds(t.api, 'getWorkspace', { params });
  assert.match(ws.body.data.id, idPattern('ws'));
  const me = await succeeds(t.api, 'getMe', {});
  assert.match(me.body.data.id, idPattern('usr'));
  const { data: key } = await t.api.call('createApiKey', { params, body: { name: 'k', scopes: ['links:read'] } });
  assert.match(key.id, idPattern('key'));
  const { data: invite } = await t.api.call('createInvite', { params, body: { email: 'someone@example.test', role: 'viewer' } });
  assert.match(invite.id, idPattern('inv'));
  assert.match(invite.expiresAt, ISO_MS);
  // Ids made one after another sort by creation time.
  const a = await t.api.call('createLink', { params, body: { url: 'https://example.com/a' } });
  await new Promise((r) => setTimeout(r, 5));
  const b = await t.api.call('createLink', { params, body: { url: 'https://example.com/b' } });
  assert.ok(a.data.id < b.data.id, `${a.data.id} < ${b.data.id}`);
});

test('odd but well-formed inputs never crash the server (no 500)', async () => {
  const t = await team();
  const base = `/v1/workspaces/${t.workspaceId}/links`;
  const probes: [string, string, unknown?][] = [
    ['GET', `${base}?createdAfter=${encodeURIComponent('0001-01-01T00:00:00Z')}`],
    ['GET', `${base}?createdAfter=${encodeURIComponent('9999-12-31T23:59:59.999Z')}`],
    ['GET', `${base}?q=${encodeURIComponent('a & b | !c')}`],
    ['GET', `${base}?tags=${encodeURIComponent(',,,')}`],
    ['GET', `${base}?domain=${encodeURIComponent("x' or '1'='1")}`],
    ['POST', base, { url: 'https://example.com/', expiresAt: '9999-12-31T23:59:59.999Z' }],
    ['POST', base, { url: 'https://example.com/', title: '\u0000 nul byte' }],
    ['POST', base, { url: 'https://example.com/', tags: ['\u0000'] }],
    ['POST', base, { url: 'https://例え.テスト/パス?q=ü' }],
    ['POST', base, { url: 'https://example.com/', maxClicks: 2147483647 }],
    ['POST', '/v1/auth/signup', { email: 'nul\u0000@example.test', password: 'long enough pw', name: 'x' }],
    ['POST', '/v1/auth/login', { email: 'someone@example.test', password: '\u0000' }],
    ['POST', base, { url: 'https://example.com/a\u0000b' }],
    ['POST', base, { url: 'https://example.com/', utmSource: 'a\u0000' }],
    ['POST', base, { url: 'https://example.com/', description: 'x\u0000' }],
    ['POST', `${base}/bulk`, [{ url: 'https://example.com/', title: '\u0000' }]],
    ['POST', '/v1/workspaces', { name: 'nul \u0000 name', slug: 'nul-name-ws' }],
    ['GET', `${base}?q=${encodeURIComponent('a\u0000b')}`],
    ['GET', `${base}?tags=${encodeURIComponent('\u0000')}`],
    ['GET', `${base}?domain=${encodeURIComponent('\u0000')}`],
  ];
  for (const [method, path, body] of probes) {
    const res = await t.api.raw(method, path, { body });
    assert.ok(res.status < 500, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)} answered ${res.status}: ${res.text.slice(0, 300)}`);
    if (res.status >= 400) assertErrorShape(res, (res.body as { error: { code: never } }).error.code, res.status);
  }
});

test('errors never leak a stack trace or internals', async () => {
  const t = await team();
  const responses = [
    await send(t.api, 'getLink', { params: { workspaceId: t.workspaceId, linkId: 'lnk_0000000000000000zzzz' } }),
    await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { rawBody: '{"url":', headers: json }),
    await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links/bulk`, { body: [{ url: 'x' }] }),
  ];
  for (const res of responses) {
    assert.doesNotMatch(res.text, /\bat [\w.<>]+ \(|node_modules|\/src\/|\.ts:\d+|SELECT |select .* from/i);
  }
});
