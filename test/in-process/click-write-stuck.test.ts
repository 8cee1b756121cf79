// A click write that does not settle (a transaction held forever, as a lost statement once did in
// CI) is not silent: hop_click_write_seconds grows, and the server logs it once per write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClickPipeline, type Visit } from '../../server/src/domain/clicks/click-pipeline.js';
import { holdDatabase, inProcessApi } from '../helpers/in-process.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a click write held up is told once, and its age is a metric until it settles', { timeout: 60_000 }, async () => {
  const api = await inProcessApi();
  const { db } = api.services;
  const stuck: number[] = [];
  const pipeline = createClickPipeline({ db, flushEveryMs: 50, stuckAfterMs: 500, onStuck: (s) => stuck.push(s) });
  const linkId = `stuck-${Date.now()}`;
  const visit: Visit = {
    linkId, slug: 'stuck', domain: 'short.test', destination: 'https://example.com/', target: 'default',
    workspaceId: 'w', qrId: null, source: 'link', at: new Date(), visitorHash: 'v', country: null, city: null,
    device: 'desktop', browser: null, os: null, referrer: null, isBot: false, counted: false,
  };
  // The embedded database runs one transaction at a time: one held open holds every write up.
  const held = await holdDatabase(db);
  try {
    pipeline.start();
    pipeline.enqueue(visit);
    // Three times the threshold by the write's own clock, many ticks of 50 ms.
    while (pipeline.flushSeconds < 1.5) await sleep(20);
    assert.deepEqual(stuck.length, 1, 'told once, not at every tick');
    // The server's own pipeline, whose age hop_click_write_seconds reports (test/api/metrics.test.ts
    // reads the gauge; /metrics itself would wait here, as its other gauges query the database).
    api.services.clicks.enqueue({ ...visit, linkId: `${linkId}-server` });
    const serverFlush = api.services.clicks.flush();
    while (api.services.clicks.flushSeconds <= 0.2) await sleep(20);
    await held.release();
    await serverFlush;
  } finally {
    await held.release();
    await pipeline.stop();
  }
  assert.equal(pipeline.flushSeconds, 0, 'no write in progress once it settled');
  const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from clicks where link_id like $1', [`${linkId}%`]);
  assert.equal(n, 2, 'both visits written once the database was free');
  await api.close();
});
