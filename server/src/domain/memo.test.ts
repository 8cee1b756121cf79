// The string memo keeps answers (null included), stays within its bound and never keeps long keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoizeByString } from './memo.js';

test('each input is computed once while it stays among the most recent, null answers too', () => {
  const calls: string[] = [];
  const f = memoizeByString((s: string) => (calls.push(s), s === 'none' ? null : s.length), 2);
  assert.equal(f('ab'), 2);
  assert.equal(f('none'), null);
  assert.equal(f('ab'), 2);
  assert.equal(f('none'), null);
  assert.deepEqual(calls, ['ab', 'none']);
  f('xyz'); // evicts the least recently used ('ab')
  f('none');
  f('ab');
  assert.deepEqual(calls, ['ab', 'none', 'xyz', 'ab']);
});

test('inputs longer than the key bound are computed every time', () => {
  let n = 0;
  const f = memoizeByString(() => ++n, 10, 4);
  f('12345');
  f('12345');
  assert.equal(n, 2);
});
