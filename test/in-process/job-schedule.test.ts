// The scheduler runs a frequent job at most once at a time per process: a tick while the last run
// is still going is skipped. During a database outage a run waits up to a second for a connection;
// runs queued behind it took the transaction sessions the click writer needed. Node's own timers,
// moved by the test, make the ticks; the test decides when a run ends.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { createScheduler } from '../../server/src/jobs/schedule.js';
import { inProcessApi } from '../helpers/in-process.js';

test('a tick while the last run of a job is still going is skipped, never queued', async () => {
  const api = await inProcessApi();
  const scheduler = createScheduler(api.services.db, { info() {}, error() {} });
  const runs: { end(): void }[] = [];
  let ended = 0;
  let runningMost = 0;
  const running = () => runs.length - ended;
  /** Lets pending promise callbacks and the database's answers run until `done` holds. */
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((r) => setImmediate(r));
  };
  mock.timers.enable({ apis: ['setInterval'] });
  try {
    scheduler.every(10, {
      name: 'slow', lockId: 72_410_999, frequent: true,
      run: () => new Promise<void>((resolve) => {
        runs.push({ end: () => { ended++; resolve(); } });
        runningMost = Math.max(runningMost, running());
      }),
    });
    mock.timers.tick(10);
    await until(() => runs.length === 1);
    for (let i = 0; i < 20; i++) mock.timers.tick(10);
    await new Promise((r) => setImmediate(r));
    assert.equal(runs.length, 1, 'twenty ticks during a run start nothing');

    runs[0].end();
    // The run's transaction commits, then the next tick starts one run, not the twenty missed.
    let ticks = 0;
    while (runs.length === 1) {
      mock.timers.tick(10);
      ticks++;
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(runs.length, 2);
    for (let i = 0; i < 5; i++) mock.timers.tick(10);
    await new Promise((r) => setImmediate(r));
    assert.equal(runs.length, 2, `one run after the first ended (${ticks} ticks to commit)`);

    scheduler.stop();
    runs[1].end();
    await until(() => ended === 2);
    for (let i = 0; i < 20; i++) mock.timers.tick(10);
    await new Promise((r) => setImmediate(r));
    assert.equal(runs.length, 2, 'nothing starts after the scheduler stopped');
    assert.equal(runningMost, 1, 'one run at a time');
  } finally {
    mock.timers.reset();
    for (const r of runs.slice(ended)) r.end();
    await api.close();
  }
});
