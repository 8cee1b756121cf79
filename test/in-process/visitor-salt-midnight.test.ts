// At midnight the redirect's fast path needs the new day's salt: loaded in the day's last minutes,
// it is there at once, so the first visits of a day (cached links included) never wait for the
// database to create it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inProcessApi } from '../helpers/in-process.js';

test('the next day\'s visitor salt is loaded before midnight and serves the first moment of the day', { timeout: 60_000 }, async () => {
  const api = await inProcessApi({ HOP_DISABLE: 'jobs' });
  try {
    const { salts } = api.services;
    const { clock } = api;
    const untilMidnight = 86_400_000 - (clock.now().getTime() % 86_400_000);
    clock.advance(untilMidnight - 5 * 60_000);
    const today = await salts.today();
    assert.equal(salts.current(), today, 'five minutes before midnight: today\'s salt, and the next one starts loading');
    const tomorrow = new Date(clock.now().getTime() + 5 * 60_000).toISOString().slice(0, 10);
    for (let i = 0; i < 200; i++) {
      const rows = await api.services.db.query<{ salt: string }>('select salt from visitor_salts where day = $1', [tomorrow]);
      if (rows.length) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    // One more statement through the worker's queue, behind the load's own read of the row.
    await api.services.db.query('select 1');
    clock.advance(5 * 60_000 + 1);
    const first = salts.current();
    assert.ok(first, 'the first moment of the day has its salt without waiting');
    assert.notEqual(first, today);
    const [stored] = await api.services.db.query<{ salt: string }>('select salt from visitor_salts where day = $1', [tomorrow]);
    assert.equal(first, stored.salt, 'the salt every process reads for that day');
    assert.equal(await salts.today(), first);
  } finally {
    await api.close();
  }
});
