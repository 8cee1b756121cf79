// PostgreSQL text cannot hold U+0000: a NUL anywhere in a request is bad input (400 in the
// contract's error shape), never a 500, whether a check catches it before the database or the
// database refuses it; in a bulk creation it fails its own element only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, assertErrorShape, team } from '../helpers/api.js';

test('a NUL in the event stream\'s workspace id is a 400 before any lookup', async () => {
  const t = await team();
  for (const path of ['/v1/workspaces/%00/events/stream', `/v1/workspaces/${t.workspaceId}%00/events/stream`]) {
    const res = await t.api.raw('GET', path);
    assertErrorShape(res, 'VALIDATION_ERROR', 400);
  }
});

test('a tags-list cursor holding a NUL is refused as a cursor', async () => {
  const t = await team();
  const cursor = Buffer.from(JSON.stringify({ n: 1, name: 'a\u0000b' })).toString('base64url');
  const res = await t.api.raw('GET', `/v1/workspaces/${t.workspaceId}/tags?cursor=${cursor}`);
  assertErrorShape(res, 'VALIDATION_ERROR', 400);
  assert.match(res.text, /query\.cursor/);
});

test('in a bulk creation, a NUL fails its own element, not the batch', async () => {
  const t = await team();
  const res = await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links/bulk`, {
    body: [{ url: 'https://example.com/fine-1' }, { url: 'https://example.com/nul', title: 'a\u0000b' }, { url: 'https://example.com/fine-2', tags: ['x\u0000'] }, { url: 'https://example.com/fine-3' }],
  });
  assert.equal(res.status, 200, res.text);
  const results = (res.body as { data: { index: number; success: boolean; error?: { code: string; message: string } }[] }).data;
  assert.deepEqual(results.map((r) => r.success), [true, false, false, true]);
  assert.equal(results[1].error?.code, 'VALIDATION_ERROR');
  assert.match(results[1].error?.message ?? '', /^title: .*NUL/);
  assert.match(results[2].error?.message ?? '', /^tags\.0: .*NUL/);
});

test('a NUL in a sign-in body is a 400 on the API too', async () => {
  const res = await fetch(`${API_URL}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: '\u0000', password: 'x' }) });
  assert.equal(res.status, 400);
  assert.equal((await res.json()).error.code, 'VALIDATION_ERROR');
});
