import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitColumns, relativeTime } from './table-fit.js';

test('cuttable columns give up room first, then the most droppable columns go, then anything is cut', () => {
  const cols = [{ natural: 10 }, { natural: 30 }, { natural: 40, cutTo: 16 }, { natural: 6, drop: 2 }, { natural: 8, drop: 3 }];
  // 10+30+40+6+8 + 4*2 = 102
  assert.deepEqual(fitColumns(cols, 120), { shown: [0, 1, 2, 3, 4], widths: [10, 30, 40, 6, 8] });
  assert.deepEqual(fitColumns(cols, 80).widths[2], 18, 'the destination is cut before a column is dropped');
  assert.deepEqual(fitColumns(cols, 80).shown, [0, 1, 2, 3, 4]);
  const narrow = fitColumns(cols, 70);
  assert.deepEqual(narrow.shown, [0, 1, 2, 3], 'the most droppable column went');
  assert.equal(narrow.widths[2], 70 - 10 - 30 - 6 - 6, 'the cut column takes back the room');
  assert.deepEqual(fitColumns(cols, 58).shown, [0, 1, 2]);
  const tiny = fitColumns(cols, 40);
  assert.deepEqual(tiny.shown, [0, 1, 2]);
  assert.ok(tiny.shown.reduce((s, i) => s + tiny.widths[i] + 2, -2) <= 40, 'the last resort cuts what is left');
});

test('relative times', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  assert.equal(relativeTime('2026-11-28T11:59:30Z', now), 'just now');
  assert.equal(relativeTime('2026-11-28T11:55:00Z', now), '5m ago');
  assert.equal(relativeTime('2026-11-28T09:00:00Z', now), '3h ago');
  assert.equal(relativeTime('2026-11-25T12:00:00Z', now), '3d ago');
  assert.equal(relativeTime('2026-11-30T12:00:00Z', now), 'in 2d');
  assert.equal(relativeTime(null, now), '');
});
