// The destination sweep's schedule, on node's own timers moved by the test: a server that has just
// started requests nobody's destination; the first sweep comes one whole interval later.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLinkHealthJob } from '../../server/src/jobs/link-health-job.js';
import { inProcessApi } from '../helpers/in-process.js';

test('the sweep never runs at start: its first run is one whole interval later', async () => {
  const api = await inProcessApi();
  const runs: string[] = [];
  mock.timers.enable({ apis: ['setInterval'] });
  const job = startLinkHealthJob({
    db: api.services.db,
    health: api.services.linkHealth,
    intervalMs: 60_000,
    log: { info() {}, error() {} },
    onRun: (_job, outcome) => runs.push(outcome),
  });
  const settled = async (n: number) => {
    while (runs.length < n) await new Promise((r) => setImmediate(r));
  };
  try {
    mock.timers.tick(59_999);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(runs, [], 'no sweep before one interval');
    mock.timers.tick(1);
    await settled(1);
    assert.deepEqual(runs, ['ran']);
  } finally {
    job.stop();
    mock.timers.reset();
    await api.close();
  }
});
