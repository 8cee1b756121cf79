// docs/api.md, Wire conventions; Links: bulk creation (one result per input, in order) and Idempotency-Key on POSTs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiKey, assertErrorShape, fails, idPattern, rawFails, send, succeeds, team, unique } from '../helpers/api.js';

test('bulk: 200 with one result per input, in order; a bad element fails alone', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const taken = unique('taken-');
  await t.api.call('createLink', { params, body: { url: 'https://example.com/', slug: taken } });
  const items = [
    { url: 'https://example.com/0' },
    { url: 'not a url' },
    { url: 'https://example.com/2', slug: unique('bulk-'), tags: ['A'] },
    { url: 'https://example.com/3', slug: taken },
    { url: 'https://example.com/4', unknownField: true },
    'not even an object',
    { url: 'https://example.com/6', password: 'needs pro plan' },
    { url: 'https://example.com/7', slug: 'login' },
    { url: 'https://example.com/8' },
  ];
  const { status, body } = await succeeds(t.api, 'bulkCreateLinks', { params, body: items as never });
  assert.equal(status, 200);
  const results = body.data;
  assert.equal(results.length, items.length);
  results.forEach((r, i) => assert.equal(r.index, i));
  const outcome = results.map((r) => (r.success ? 'ok' : r.error.code));
  assert.deepEqual(outcome, [
    'ok', 'VALIDATION_ERROR', 'ok', 'SLUG_ALREADY_EXISTS', 'VALIDATION_ERROR', 'VALIDATION_ERROR', 'TIER_REQUIRED', 'VALIDATION_ERROR', 'ok',
  ]);
  for (const r of results) {
    if (r.success) {
      assert.match(r.data.id, idPattern('lnk'));
      assert.deepEqual(Object.keys(r).sort(), ['data', 'index', 'success']);
    } else {
      assert.deepEqual(Object.keys(r).sort(), ['error', 'index', 'success']);
      assert.deepEqual(Object.keys(r.error).sort(), ['code', 'details', 'message', 'statusCode']);
    }
  }
  const ok = results.filter((r) => r.success);
  assert.equal((ok[0] as { data: { url: string } }).data.url, 'https://example.com/0');
  assert.deepEqual((ok[1] as { data: { tags: string[] } }).data.tags, ['a']);
  const failed = results.filter((r) => !r.success) as { error: { statusCode: number; details: Record<string, unknown> } }[];
  assert.deepEqual(failed.map((f) => f.error.statusCode), [400, 400, 400, 400, 403, 400]);
  assert.ok(Array.isArray(failed[0].error.details.issues));
  assert.equal(failed[1].error.details.field, 'slug');
  assert.equal(typeof failed[1].error.details.suggestion, 'string');
  assert.equal(failed[4].error.details.requiredPlan, 'pro');

  // Exactly the good ones were created (plus the earlier one).
  const list = await t.api.call('listLinks', { params, query: { limit: 100 } });
  assert.equal(list.data.length, 4);
  for (const r of ok) assert.ok(list.data.some((l) => l.id === (r as { data: { id: string } }).data.id));
});

test('bulk: 100 links at once; more than 100, an empty array or a non-array answer 400', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const path = `/v1/workspaces/${t.workspaceId}/links/bulk`;
  const hundred = Array.from({ length: 100 }, (_, i) => ({ url: `https://example.com/${i}` }));
  const { body } = await succeeds(t.api, 'bulkCreateLinks', { params, body: hundred });
  assert.equal(body.data.length, 100);
  assert.ok(body.data.every((r, i) => r.success && r.index === i));
  assert.equal(new Set(body.data.map((r) => (r as { data: { slug: string } }).data.slug)).size, 100);

  const over = await rawFails(t.api, 'POST', path, { body: [...hundred, { url: 'https://example.com/101' }] }, 'VALIDATION_ERROR');
  assert.ok(over.details.issues);
  await rawFails(t.api, 'POST', path, { body: [] }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'POST', path, { body: { url: 'https://example.com/' } }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'POST', path, { body: 'https://example.com/' }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'POST', path, { body: null }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'POST', path, { rawBody: '[{bad', headers: { 'content-type': 'application/json' } }, 'VALIDATION_ERROR');
  const list = await t.api.call('listLinks', { params, query: { limit: 100 } });
  assert.equal(list.data.length, 100, 'refused batches created nothing');
});

test('bulk: roles and scopes apply to the batch', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const reader = await apiKey(t, ['links:read']);
  const e = await fails(reader.api, 'bulkCreateLinks', { params, body: [{ url: 'https://example.com/' }] }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e.details.requiredScope, 'links:write');
  const stranger = await team();
  await fails(stranger.api, 'bulkCreateLinks', { params, body: [{ url: 'https://example.com/' }] }, 'NOT_FOUND', 404);
});

test('Idempotency-Key: a retry with the same key and body answers the first response; one link is made', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const key = `deploy-${unique()}`;
  const body = { url: 'https://example.com/idem', tags: ['ci'] };
  const first = await succeeds(t.api, 'createLink', { params, body, idempotencyKey: key });
  assert.equal(first.status, 201);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  const second = await succeeds(t.api, 'createLink', { params, body, idempotencyKey: key });
  assert.equal(second.status, 201);
  assert.equal(second.headers['idempotent-replayed'], 'true');
  assert.deepEqual(second.body, first.body);
  const third = await succeeds(t.api, 'createLink', { params, body: { ...body }, idempotencyKey: key });
  assert.equal(third.body.data.id, first.body.data.id);
  const list = await t.api.call('listLinks', { params });
  assert.equal(list.data.length, 1);
});

test('Idempotency-Key: the same key with another body answers 400; different keys make different links', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const key = `k-${unique()}`;
  const first = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/a' }, idempotencyKey: key });
  const err = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/b' }, idempotencyKey: key }, 'VALIDATION_ERROR', 400);
  assert.ok(err.details.issues);
  // The refusal does not spoil the key: the original body still replays.
  const again = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/a' }, idempotencyKey: key });
  assert.equal(again.body.data.id, first.body.data.id);

  const other = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/a' }, idempotencyKey: `k-${unique()}` });
  assert.notEqual(other.body.data.id, first.body.data.id);
  const none = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/a' } });
  assert.notEqual(none.body.data.id, first.body.data.id);
  const list = await t.api.call('listLinks', { params });
  assert.equal(list.data.length, 3);
  await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/a' }, idempotencyKey: 'x'.repeat(256) }, 'VALIDATION_ERROR');
});

test('Idempotency-Key: a refused request is not stored; a corrected retry with the key runs', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const key = `k-${unique()}`;
  const slug = unique('idem-');
  await t.api.call('createLink', { params, body: { url: 'https://example.com/', slug } });
  await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/x', slug }, idempotencyKey: key }, 'SLUG_ALREADY_EXISTS');
  await t.api.call('deleteLink', { params: { ...params, linkId: (await t.api.call('listLinks', { params })).data[0].id } });
  const retried = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/x', slug }, idempotencyKey: key });
  assert.equal(retried.body.data.slug, slug);
  assert.equal(retried.headers['idempotent-replayed'], undefined);
});

test('Idempotency-Key: keys are per caller and per workspace', async () => {
  const t = await team();
  const { data: second } = await t.api.call('createWorkspace', { body: { name: 'Second', slug: unique('ws-') } });
  const stranger = await team();
  const key = `shared-${unique()}`;
  const body = { url: 'https://example.com/same' };
  const a = await succeeds(t.api, 'createLink', { params: { workspaceId: t.workspaceId }, body, idempotencyKey: key });
  const b = await succeeds(t.api, 'createLink', { params: { workspaceId: second.id }, body, idempotencyKey: key });
  const c = await succeeds(stranger.api, 'createLink', { params: { workspaceId: stranger.workspaceId }, body, idempotencyKey: key });
  assert.equal(new Set([a.body.data.id, b.body.data.id, c.body.data.id]).size, 3);
  assert.equal(c.headers['idempotent-replayed'], undefined);
  // Another user cannot read someone's stored answer by guessing their key.
  const replay = await send(stranger.api, 'createLink', { params: { workspaceId: t.workspaceId }, body, idempotencyKey: key });
  assertErrorShape(replay, 'NOT_FOUND', 404);
});

test('Idempotency-Key on bulk: same key and body replay the same results; another body answers 400', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const key = `bulk-${unique()}`;
  const items = [{ url: 'https://example.com/1' }, { url: 'bad' }, { url: 'https://example.com/3' }];
  const first = await succeeds(t.api, 'bulkCreateLinks', { params, body: items, idempotencyKey: key });
  const second = await succeeds(t.api, 'bulkCreateLinks', { params, body: items, idempotencyKey: key });
  assert.equal(second.headers['idempotent-replayed'], 'true');
  assert.deepEqual(second.body, first.body);
  await fails(t.api, 'bulkCreateLinks', { params, body: [{ url: 'https://example.com/other' }], idempotencyKey: key }, 'VALIDATION_ERROR', 400);
  const list = await t.api.call('listLinks', { params });
  assert.equal(list.data.length, 2);
  const fresh = await succeeds(t.api, 'bulkCreateLinks', { params, body: items, idempotencyKey: `bulk-${unique()}` });
  assert.notDeepEqual(fresh.body, first.body);
  assert.equal((await t.api.call('listLinks', { params })).data.length, 4);
});

test('Idempotency-Key: concurrent retries still create one link', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const key = `race-${unique()}`;
  const body = { url: 'https://example.com/race' };
  const answers = await Promise.all(Array.from({ length: 5 }, () => send(t.api, 'createLink', { params, body, idempotencyKey: key })));
  // Each answer is the link (first or replayed) or a 409 "still in progress" the client may retry.
  const ids = new Set<string>();
  for (const res of answers) {
    if (res.status === 201) ids.add((res.body as { data: { id: string } }).data.id);
    else assertErrorShape(res, 'CONFLICT', 409);
  }
  assert.equal(ids.size, 1);
  const list = await t.api.call('listLinks', { params });
  assert.equal(list.data.length, 1);
  const replay = await succeeds(t.api, 'createLink', { params, body, idempotencyKey: key });
  assert.equal(replay.body.data.id, [...ids][0]);
});

test('bulk-created links carry their real creation time: a later link sorts first and createdAfter finds it', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const items = Array.from({ length: 50 }, (_, i) => ({ url: `https://example.com/batch-${i}` }));
  const { data: results } = await t.api.call('bulkCreateLinks', { params, body: items });
  const batch = results.map((r) => (r.success ? r.data : assert.fail(JSON.stringify(r))));
  assert.equal(new Set(batch.map((l) => l.createdAt)).size, 1, 'one creation time for the batch');
  const { data: later } = await t.api.call('createLink', { params, body: { url: 'https://example.com/after-the-batch' } });
  assert.ok(later.createdAt >= batch[0].createdAt);

  const { data: listed } = await t.api.paginate('listLinks', { params, query: { limit: 100 } });
  assert.deepEqual(listed.map((l) => l.id), [later.id, ...batch.map((l) => l.id).reverse()], 'newest first; the batch in input order within its time');
  // A poller that saw the batch, asking for what came after its newest time, gets the later link.
  if (later.createdAt > batch[0].createdAt) {
    const { data: polled } = await t.api.call('listLinks', { params, query: { createdAfter: batch[0].createdAt } });
    assert.deepEqual(polled.map((l) => l.id), [later.id]);
  }
});
