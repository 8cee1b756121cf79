// PostgreSQL going away under load: a server on a cluster of the test's own keeps redirecting
// cached links while the database is down, recovers on its own once it is back (no restart of
// Hop), and writes every click it buffered meanwhile, each exactly once. Runs in both passes of
// the suite: the cluster is the test's, whatever the rest of the run uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, clicksWritten, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startThrowawayPostgres, throwawayPostgresUnavailable } from '../helpers/throwaway-postgres.js';
import { browserVisit, sleep, startLoad, stopLoads, tally } from '../helpers/load.js';

const readyStatus = async (url: string) => {
  try {
    const res = await fetch(`${url}/readyz`);
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
};

test('PostgreSQL stopped and started under load: redirects go on, the server recovers, no click is lost or doubled', {
  skip: throwawayPostgresUnavailable(),
  timeout: 90_000,
}, async () => {
  const pg = await startThrowawayPostgres();
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-fault-pg-'));
  const server = await startServer({
    dataDir,
    env: { DATABASE_URL: pg.url, HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_CLICK_FLUSH_MS: '100' },
  });
  try {
    const t = await team('pro', server.url);
    const ws = { workspaceId: t.workspaceId };
    const { data: link } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/pg-restart' } });
    const shortUrl = `${server.url}${new URL(link.shortUrl).pathname}`;
    // The first visit puts the link in the redirect cache: only cached links can be served blind.
    assert.equal(await browserVisit(shortUrl), 302);

    const visits = startLoad(30, () => browserVisit(shortUrl));
    // API traffic alongside: reads and writes, which need the database and may fail while it is down.
    const api = startLoad(2, async (w, i) => {
      const res = w === 0
        ? await t.api.raw('GET', `/v1/workspaces/${t.workspaceId}/links/${link.id}`)
        : await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: `https://example.com/during/${i}` } });
      return res.status;
    });
    await sleep(1500);

    pg.stop('fast');
    const atStop = visits.outcomes.length;
    await sleep(1000);
    assert.equal(await readyStatus(server.url), 503, 'readyz reports the database down');
    await sleep(2000);
    const servedWhileDown = visits.outcomes.slice(atStop).filter((o) => o === 302).length;
    pg.start();

    await eventually(async () => ((await readyStatus(server.url)) === 200 ? true : undefined), 20_000, 'readyz after PostgreSQL is back');
    await sleep(1500); // load on the recovered server, its buffer draining meanwhile
    const visited = await visits.stop();
    const apiOutcomes = await api.stop();

    // Every visit of the cached link was redirected, before, during and after the outage.
    const errors = () => server.output().split('\n').filter((l) => l.includes('"level":50') && !l.includes('writing clicks failed')).slice(-5).join('\n');
    assert.deepEqual(tally(visited), { 302: visited.length }, `every visit answered 302; the server's last errors:\n${errors()}`);
    assert.ok(servedWhileDown > 0, 'redirects went on while the database was down');

    // The API works again without restarting Hop: the same session, a write and a read.
    const { data: after } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/after-restart' } });
    const { data: reread } = await t.api.call('getLink', { params: { ...ws, linkId: after.id } });
    assert.equal(reread.url, 'https://example.com/after-restart');
    const lastApi = apiOutcomes.slice(-2);
    assert.ok(lastApi.every((o) => o === 200 || o === 201), `API answers once recovered: ${JSON.stringify(tally(apiOutcomes))}`);

    // Every counted 302 (the warm-up's and the load's) is one click, written once.
    const expected = 1 + visited.length;
    const clicks = await eventually(async () => {
      const { data } = await t.api.call('getLink', { params: { ...ws, linkId: link.id } });
      return data.clicks >= expected ? data.clicks : undefined;
    }, 20_000, `${expected} clicks in the database`);
    await clicksWritten(server.url); // a batch flushed twice would be in the database by then
    const { data: settled } = await t.api.call('getLink', { params: { ...ws, linkId: link.id } });
    assert.equal(clicks, expected, 'link.clicks equals the counted redirects');
    assert.equal(settled.clicks, expected, 'and stays there');
    assert.equal(Number(pg.query(`select count(*) from clicks where link_id = '${link.id}'`)), expected, 'one clicks row per redirect');
  } finally {
    await stopLoads();
    const code = await server.stop();
    pg.destroy();
    rmSync(dataDir, { recursive: true, force: true });
    assert.equal(code, 0, `server exit code\n${server.output().slice(-3000)}`);
  }
});
