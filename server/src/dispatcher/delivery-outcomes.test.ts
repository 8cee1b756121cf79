// The tally the dispatcher's thread reports from: each attempt handed over once, in batches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOutcomeTally } from './delivery-outcomes.js';

test('since() hands over what was added after the last call, and nothing while nothing was', () => {
  const tally = createOutcomeTally();
  assert.equal(tally.since(), undefined);
  tally.add('succeeded');
  tally.add('succeeded');
  tally.add('retry');
  assert.deepEqual(tally.since(), { succeeded: 2, failed: 0, retry: 1 });
  assert.equal(tally.since(), undefined);
  tally.add('failed');
  assert.deepEqual(tally.since(), { succeeded: 0, failed: 1, retry: 0 });
  assert.deepEqual(tally.counts, { succeeded: 2, failed: 1, retry: 1 });
});

test('a batch added to another tally sums into its counts', () => {
  const thread = createOutcomeTally();
  const main = createOutcomeTally();
  for (let i = 0; i < 1000; i++) thread.add(i % 10 === 0 ? 'retry' : 'succeeded');
  main.addAll(thread.since()!);
  thread.add('failed');
  main.addAll(thread.since()!);
  assert.deepEqual(main.counts, { succeeded: 900, failed: 1, retry: 100 });
});
