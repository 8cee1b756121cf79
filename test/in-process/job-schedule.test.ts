// The scheduler runs a frequent job at most once at a time per process: a tick while the last run
// is still going is skipped. During a database outage a run waits up to a second for a connection;
// runs queued behind it took the transaction sessions the click writer needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createScheduler } from '../../server/src/jobs/schedule.js';
import { inProcessApi } from '../helpers/in-process.js';

test('a tick while the last run of a job is still going is skipped, never queued', async () => {
  const api = await inProcessApi();
  const scheduler = createScheduler(api.services.db, { info() {}, error() {} });
  let running = 0;
  let most = 0;
  let runs = 0;
  let runsAtStop = 0;
  try {
    scheduler.every(10, {
      name: 'slow', lockId: 72_410_999, frequent: true,
      async run() {
        runs++;
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 200));
        running--;
      },
    });
    await new Promise((r) => setTimeout(r, 700));
  } finally {
    scheduler.stop();
    runsAtStop = runs;
    // Runs queued behind the one in flight would go on starting now.
    await new Promise((r) => setTimeout(r, 500));
    while (running > 0) await new Promise((r) => setTimeout(r, 20));
    await api.close();
  }
  assert.equal(most, 1, 'one run at a time');
  // 70 ticks in 700 ms; runs of 200 ms one after the other: at most 4 began (and one more whose
  // tick came just before the stop, its transaction not yet begun).
  assert.ok(runs >= 1 && runs <= 5, `${runs} runs`);
  assert.ok(runs - runsAtStop <= 1, `${runs - runsAtStop} runs waited in a queue to start after the scheduler stopped`);
});
