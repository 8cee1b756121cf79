// Reads that arrive together share a run; one begun before a read arrived only within joinWithinMs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSharedReads } from './shared-reads.js';

function controlled() {
  const runs: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  const run = () => new Promise<number>((resolve, reject) => runs.push({ resolve, reject }));
  return { runs, run };
}

test('a read arriving during a run waits for the next run, which it shares with the others that arrived', async () => {
  const read = createSharedReads<number>();
  const { runs, run } = controlled();
  const first = read('k', run);
  const second = read('k', run);
  const third = read('k', run);
  assert.equal(runs.length, 1, 'the later reads do not start a run of their own while one is going');
  runs[0].resolve(1);
  assert.equal(await first, 1);
  await new Promise((r) => setImmediate(r));
  assert.equal(runs.length, 2, 'they share one run, begun after the first ended');
  runs[1].resolve(2);
  assert.equal(await second, 2);
  assert.equal(await third, 2);
});

test('other keys run on their own, a failure reaches only the reads of its run, and the key is free afterwards', async () => {
  const read = createSharedReads<number>();
  const { runs, run } = controlled();
  const a = read('a', run);
  const b = read('b', run);
  assert.equal(runs.length, 2);
  const aNext = read('a', run);
  runs[0].reject(new Error('boom'));
  await assert.rejects(a, /boom/);
  await new Promise((r) => setImmediate(r));
  runs[2].resolve(3);
  assert.equal(await aNext, 3);
  runs[1].resolve(4);
  assert.equal(await b, 4);
  const again = read('a', run);
  assert.equal(runs.length, 4, 'a settled key starts a fresh run');
  runs[3].resolve(5);
  assert.equal(await again, 5);
});

test('with joinWithinMs, a read joins a run begun at most that long before it arrived, and waits for the next past it', async () => {
  let clock = 0;
  const read = createSharedReads<number>({ joinWithinMs: 100, now: () => clock });
  const { runs, run } = controlled();
  const first = read('k', run);
  clock = 100;
  const joined = read('k', run);
  assert.equal(runs.length, 1, 'a read 100 ms into the run joins it');
  clock = 101;
  const later = read('k', run);
  clock = 102;
  const alsoLater = read('k', run);
  runs[0].resolve(1);
  assert.equal(await first, 1);
  assert.equal(await joined, 1);
  await new Promise((r) => setImmediate(r));
  assert.equal(runs.length, 2, 'reads past the window share the next run, begun after they arrived');
  runs[1].resolve(2);
  assert.equal(await later, 2);
  assert.equal(await alsoLater, 2);
});

test('once a next run waits, a read joins that one, never the older run', async () => {
  let clock = 0;
  const read = createSharedReads<number>({ joinWithinMs: 100, now: () => clock });
  const { runs, run } = controlled();
  const first = read('k', run);
  clock = 500;
  const waiting = read('k', run);
  clock = 510;
  const after = read('k', run);
  runs[0].resolve(1);
  assert.equal(await first, 1);
  await new Promise((r) => setImmediate(r));
  runs[1].resolve(2);
  assert.equal(await waiting, 2);
  assert.equal(await after, 2, 'it shares the run begun after it arrived');
});
