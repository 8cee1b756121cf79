// The aggregation job counts every click exactly once across a fleet, even when the process
// running it is killed mid-job: two servers on one PostgreSQL (a throw-away cluster); the first
// is SIGKILLed while its run has written its rollups but not yet committed them with the
// watermark; the second takes over, and rollups, uniques and the link counter come out exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { ADMIN_TOKEN, BROWSER_UA, client, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startThrowawayPostgres, throwawayPostgresUnavailable } from '../helpers/throwaway-postgres.js';

const VISITORS = 20;
const VISITS_EACH = 3;
const BOTS = 5;

test('a server killed in the middle of an aggregation run: the other finishes it, every click counted once', {
  skip: throwawayPostgresUnavailable(),
  timeout: 120_000,
}, async () => {
  const pg = await startThrowawayPostgres();
  const dirs = [mkdtempSync(join(tmpdir(), 'hop-agg-a-')), mkdtempSync(join(tmpdir(), 'hop-agg-b-'))];
  const env = { DATABASE_URL: pg.url, HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_CLICK_FLUSH_MS: '100', HOP_TRUST_PROXY: '127.0.0.1' };
  const sql = postgres(pg.url, { max: 2, onnotice: () => {} });
  const first = await startServer({ dataDir: dirs[0], env });
  let second: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const t = await team('free', first.url);
    const params = { workspaceId: t.workspaceId };
    const { data: link } = await t.api.call('createLink', { params, body: { url: 'https://example.com/exactly-once' } });
    const path = new URL(link.shortUrl).pathname;

    // Hold a SHARE lock on the watermark: a run can read it and write its rollups, but its final
    // update of the watermark waits, with the run's output written and uncommitted.
    const gate = await sql.reserve();
    await gate`begin`;
    await gate`lock table click_watermark in share mode`;

    const visit = async (ip: string, ua: string) => {
      const res = await fetch(`${first.url}${path}`, { redirect: 'manual', headers: { 'x-forwarded-for': ip, 'user-agent': ua } });
      assert.equal(res.status, 302);
    };
    for (let round = 0; round < VISITS_EACH; round++) {
      for (let v = 0; v < VISITORS; v++) await visit(`198.51.100.${v + 1}`, BROWSER_UA.desktopChrome);
    }
    for (let b = 0; b < BOTS; b++) await visit(`198.51.100.${b + 1}`, BROWSER_UA.googlebot);
    const total = VISITORS * VISITS_EACH + BOTS;
    await eventually(async () => ((await sql`select count(*)::int as n from clicks`)[0].n === total ? true : undefined), 10_000, 'every click in the log');

    // The first server's run is stuck at its watermark update, after writing its output.
    await eventually(async () => {
      const [w] = await sql`select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
        where c.relname = 'click_watermark' and not l.granted`;
      return w.n > 0 ? true : undefined;
    }, 10_000, 'a run waiting on the watermark');
    second = await startServer({ dataDir: dirs[1], env });
    first.child.kill('SIGKILL');
    await first.exited;
    await gate`commit`;
    gate.release();

    // The second server rolls everything up: the watermark reaches the last click.
    await eventually(async () => {
      const [r] = await sql`select (select last_id from click_watermark) = (select max(id) from clicks) as done`;
      return r.done ? true : undefined;
    }, 20_000, 'the watermark at the last click');
    const [counts] = await sql`select
        (select clicks from link_counters where link_id = ${link.id})::int as counter,
        (select sum(clicks) from click_rollups where link_id = ${link.id} and dimension = 'agent')::int as rolled,
        (select sum(uniques) from click_rollups where link_id = ${link.id} and dimension = 'agent')::int as uniques,
        (select sum(clicks) from click_rollups where link_id = ${link.id} and dimension = 'agent'
           and split_part(key, chr(31), 2) = 'Chrome')::int as chrome`;
    assert.deepEqual(counts, { counter: VISITORS * VISITS_EACH, rolled: VISITORS * VISITS_EACH, uniques: VISITORS, chrome: VISITORS * VISITS_EACH });

    // The API of the surviving server says the same.
    const { data: after } = await client({ token: t.token }, second.url).call('getLink', { params: { ...params, linkId: link.id } });
    assert.equal(after.clicks, VISITORS * VISITS_EACH);
  } finally {
    await sql.end({ timeout: 1 });
    if (first.child.exitCode === null && first.child.signalCode === null) await first.stop();
    if (second) await second.stop();
    pg.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});
