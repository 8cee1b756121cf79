import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anonymous } from '../helpers/api.js';

test('healthz and readyz answer', async () => {
  const h = await anonymous.raw('GET', '/healthz');
  assert.equal(h.status, 200);
  assert.deepEqual(h.body, { status: 'ok' });
  const r = await anonymous.raw('GET', '/readyz');
  assert.equal(r.status, 200);
  assert.equal((r.body as { status: string }).status, 'ready');
});

test('every response carries X-Request-Id, and a sane incoming one is kept', async () => {
  const a = await anonymous.raw('GET', '/healthz');
  assert.match(String(a.headers['x-request-id']), /^req_[0-9A-Za-z]{16}$/);
  const b = await anonymous.raw('GET', '/healthz', { headers: { 'x-request-id': 'trace-abc-12345' } });
  assert.equal(b.headers['x-request-id'], 'trace-abc-12345');
});

test('unknown routes answer 404 NOT_FOUND in the error shape', async () => {
  const res = await anonymous.raw('GET', '/v1/does-not-exist');
  assert.equal(res.status, 404);
  assert.deepEqual(res.body, {
    success: false,
    error: { code: 'NOT_FOUND', message: 'no route GET /v1/does-not-exist', statusCode: 404, details: { resource: 'route' } },
  });
});
