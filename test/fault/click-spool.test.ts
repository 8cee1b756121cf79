// No click lost to a database outage: with the in-memory bound scaled down (HOP_CLICK_BUFFER_MAX
// 500, where the default is 200,000), a throw-away PostgreSQL is stopped while thousands of visits
// arrive, far more than memory may hold. They go to the spool file under the data directory; a
// SIGTERM during the outage exits cleanly with them on disk; the next start replays them once the
// database is back; a second outage in one run is replayed without a restart. Every redirect
// answered is one click in the log, and one in the link's count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, client, eventually, METRICS_AUTH, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startThrowawayPostgres, throwawayPostgresUnavailable } from '../helpers/throwaway-postgres.js';
import { browserVisit } from '../helpers/load.js';

/** `n` visits, `concurrency` at a time: how many were answered 302. */
async function visits(url: string, n: number, concurrency = 20): Promise<number> {
  let next = 0;
  let redirected = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) {
      next++;
      if ((await browserVisit(url)) === 302) redirected++;
    }
  }));
  return redirected;
}

test('visits during PostgreSQL outages go to the spool file and are all written once it is back', {
  skip: throwawayPostgresUnavailable(),
  timeout: 180_000,
}, async () => {
  const pg = await startThrowawayPostgres();
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-spool-'));
  const env = {
    DATABASE_URL: pg.url, HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_CLICK_FLUSH_MS: '100', HOP_CLICK_BUFFER_MAX: '500',
    HOP_SHORT_DOMAIN: 'spool.test',
  };
  let server = await startServer({ dataDir, env });
  try {
    const t = await team('free', server.url);
    const params = { workspaceId: t.workspaceId };
    const { data: link } = await t.api.call('createLink', { params, body: { url: 'https://example.com/spooled' } });
    const shortUrl = () => `${server.url}/${link.slug}`;
    // The first visit caches the link and the day's salt: the redirect then needs no database.
    let answered = await visits(shortUrl(), 1, 1);

    // Outage 1, ended by a restart: SIGTERM while the database is down leaves the visits on disk.
    pg.stop('fast');
    answered += await visits(shortUrl(), 2000);
    assert.equal(answered, 2001, 'every visit redirected during the outage');
    assert.equal(await server.stop(), 0, `a clean stop with the visits spooled\n${server.output().slice(-2000)}`);
    const spoolDir = join(dataDir, 'click-spool');
    assert.ok(readdirSync(spoolDir).length > 0, 'the spool file holds the visits');
    pg.start();
    server = await startServer({ dataDir, env });

    // Outage 2, in one run: replayed once the database is back.
    await visits(shortUrl(), 1, 1).then((n) => (answered += n));
    pg.stop('fast');
    answered += await visits(shortUrl(), 2000);
    pg.start();

    const api = client({ token: t.token }, server.url);
    await eventually(async () => {
      const { data } = await api.call('getLink', { params: { ...params, linkId: link.id } });
      if (data.clicks < answered) {
        const errors = server.output().split('\n').filter((l) => l.includes('"level":50')).slice(-3).join('\n');
        throw new Error(`${data.clicks} counted, ${pg.query(`select count(*) from clicks`)} in the log; ${errors}`);
      }
      return true;
    }, 60_000, `${answered} clicks counted`);
    const logged = Number(pg.query(`select count(*) from clicks where link_id = '${link.id}'`));
    assert.equal(logged, answered, 'one click in the log per redirect: none lost, none twice');
    const { data } = await api.call('getLink', { params: { ...params, linkId: link.id } });
    assert.equal(data.clicks, answered);
    await eventually(async () => (readdirSync(spoolDir).length === 0 ? true : undefined), 10_000, 'replayed spool files deleted');
  } catch (err) {
    // The server's own account (its exit, its errors, where its visits wait) and the database's
    // log are what explain a failure here.
    const metrics = await fetch(`${server.url}/metrics`, { headers: METRICS_AUTH, signal: AbortSignal.timeout(5000) })
      .then(async (r) => (await r.text()).split('\n').filter((l) => l.startsWith('hop_click_')).join('\n'), (e: Error) => `no metrics: ${e.message}`);
    throw new Error(`${(err as Error).message}\nserver exit code: ${server.child.exitCode}; its click metrics:\n${metrics}\nits output:\n${
      server.output().slice(-4000)}\nPostgreSQL's log:\n${pg.log().slice(-2000)}`, { cause: err });
  } finally {
    await server.stop();
    pg.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
