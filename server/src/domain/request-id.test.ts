// Fresh request ids keep their shape and order across the point where their head is formatted again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestIdFor } from './request-id.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The counter an id carries: its last eight characters in base 62. */
const counterOf = (id: string) => [...id.slice(-8)].reduce((n, c) => n * 62 + BASE62.indexOf(c), 0);

test('fresh ids are req_ and 16 base-62 characters, one process prefix, the counter going up by one', () => {
  const ids = Array.from({ length: 10_000 }, () => requestIdFor(undefined));
  for (const id of ids) assert.match(id, /^req_[0-9A-Za-z]{16}$/);
  assert.equal(new Set(ids.map((id) => id.slice(0, 12))).size, 1);
  // 10,000 ids cross at least two of the points (every 3,844) where the first six digits change.
  for (let i = 1; i < ids.length; i++) assert.equal(counterOf(ids[i]), counterOf(ids[i - 1]) + 1, `${ids[i - 1]} then ${ids[i]}`);
});

test('a caller\'s plausible X-Request-Id is kept; anything else gets a fresh one', () => {
  assert.equal(requestIdFor('trace-0123456789'), 'trace-0123456789');
  assert.match(requestIdFor('short'), /^req_/);
  assert.match(requestIdFor(['a-list-of-ids', 'b']), /^req_/);
  assert.match(requestIdFor('bad id with spaces'), /^req_/);
});
