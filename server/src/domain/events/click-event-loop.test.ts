// The click event loop's decisions: a run as soon as clicks wait, runs back to back through a
// backlog, growing only while the load is calm, and, while the redirects keep the process busy
// (or before the first load report), small runs (the busy rate) only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUSY_PER_SECOND, BUSY_UTILIZATION, CALM_UTILIZATION, FIRST_RUN, startClickEventLoop } from './click-event-loop.js';
import type { ClickEventProducer, ProducerRun } from './click-event-producer.js';

/** A producer over a backlog of `waiting` clicks that records each run's limit. */
function backlog(waiting: number, maxPerRun = 10_000) {
  const limits: (number | undefined)[] = [];
  let left = waiting;
  const producer: ClickEventProducer = {
    pending: async () => left,
    run: async (limit?: number): Promise<ProducerRun> => {
      limits.push(limit);
      const n = Math.min(left, limit ?? maxPerRun);
      left -= n;
      return { from: 0, to: n, events: n, more: left > 0, skipped: false };
    },
  };
  return { producer, limits, left: () => left };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
};

test('a backlog is produced in runs back to back, each twice the last, while the load is calm', async () => {
  const b = backlog(35_000);
  const loop = startClickEventLoop({ producer: b.producer, pollMs: 10_000, load: () => 0.1 });
  await until(() => b.left() === 0);
  await loop.stop();
  // No poll interval in between: the next run follows one that left more.
  const f = FIRST_RUN;
  assert.deepEqual(b.limits.slice(0, 4), [f, 2 * f, 4 * f, 8 * f]);
  assert.equal(b.limits.reduce((t, l) => t + Math.min(l ?? 0, 10_000), 0) >= 35_000, true);
});

test('while busy, each run takes at most the busy rate; once the load eases, runs grow again', async () => {
  const b = backlog(20_000);
  let load = 0.95;
  const loop = startClickEventLoop({ producer: b.producer, pollMs: 5, load: () => load });
  await until(() => b.limits.length >= 1);
  load = 0.1;
  await until(() => b.left() === 0);
  await loop.stop();
  assert.equal(b.limits[0], BUSY_PER_SECOND);
  // Once the load eased, runs start at their first size and grow again.
  assert.equal(b.limits[1], FIRST_RUN);
  assert.ok(b.limits.slice(2).some((l) => (l ?? 0) >= 2 * FIRST_RUN), `runs grew after the load eased: ${b.limits.join(', ')}`);
});

test('before the first load report, runs take the busy rate: the load is unknown and counts as busy', async () => {
  const b = backlog(20_000);
  // The first report (calm) comes in once the first run has begun.
  const loop = startClickEventLoop({ producer: b.producer, pollMs: 5, load: () => (b.limits.length >= 1 ? 0.1 : undefined) });
  await until(() => b.left() === 0);
  await loop.stop();
  assert.equal(b.limits[0], BUSY_PER_SECOND);
  assert.ok(b.limits.slice(1).some((l) => (l ?? 0) >= 2 * FIRST_RUN), `runs grew after the first report: ${b.limits.join(', ')}`);
});

test('between calm and busy, runs keep their size: they double only while the load is calm', async () => {
  assert.ok(CALM_UTILIZATION < BUSY_UTILIZATION);
  const b = backlog(5_000);
  const between = (CALM_UTILIZATION + BUSY_UTILIZATION) / 2;
  // Calm through the first run, between calm and busy from the second on.
  const loop = startClickEventLoop({ producer: b.producer, pollMs: 5, load: () => (b.limits.length >= 2 ? between : 0.1) });
  await until(() => b.left() === 0);
  await loop.stop();
  const f = FIRST_RUN;
  assert.deepEqual(b.limits.slice(0, 2), [f, 2 * f]);
  assert.ok(b.limits.slice(2).every((l) => l === 2 * f), `runs held their size: ${b.limits.join(', ')}`);
});

test('where no load is reported (a process that answers no redirects), runs never hold back', async () => {
  const b = backlog(35_000);
  const loop = startClickEventLoop({ producer: b.producer, pollMs: 10_000 });
  await until(() => b.left() === 0);
  await loop.stop();
  const f = FIRST_RUN;
  assert.deepEqual(b.limits.slice(0, 4), [f, 2 * f, 4 * f, 8 * f]);
});

test('the busy rate is the operator\'s to set', async () => {
  const b = backlog(5_000);
  const loop = startClickEventLoop({ producer: b.producer, pollMs: 5, load: () => 0.95, busyPerSecond: 7 });
  await until(() => b.limits.length >= 1);
  await loop.stop();
  assert.deepEqual(b.limits, [7]);
});

test('a failed run is logged and the next one reads the same clicks again', async () => {
  const b = backlog(100);
  let failures = 1;
  const errors: string[] = [];
  const producer: ClickEventProducer = {
    pending: b.producer.pending,
    run: async (limit) => {
      if (failures-- > 0) throw new Error('connection lost');
      return b.producer.run(limit);
    },
  };
  const loop = startClickEventLoop({ producer, pollMs: 5, log: { error: (_o, msg) => errors.push(msg) } });
  await until(() => b.left() === 0);
  await loop.stop();
  assert.equal(errors.length, 1);
  assert.equal(b.left(), 0);
});
