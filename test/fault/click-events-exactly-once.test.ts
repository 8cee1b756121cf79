// link.clicked comes from the click log, each click once, even when the process producing it is
// killed mid-run: two servers on one PostgreSQL (a throw-away cluster); the first is SIGKILLed
// while its producer's run has written the events of a range but not yet moved the cursor with
// them; the second takes over, and every click arrives as one event, none twice, none lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { WEBHOOK_HEADERS } from '@hop/shared';
import { ADMIN_TOKEN, BROWSER_UA, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { startThrowawayPostgres, throwawayPostgresUnavailable } from '../helpers/throwaway-postgres.js';

const VISITS = 40;
const BOTS = 4;

test('a server killed in the middle of producing click events: the other produces them, each click once', {
  skip: throwawayPostgresUnavailable(),
  timeout: 120_000,
}, async () => {
  const pg = await startThrowawayPostgres();
  const receiver = await startReceiver();
  const dirs = [mkdtempSync(join(tmpdir(), 'hop-clickev-a-')), mkdtempSync(join(tmpdir(), 'hop-clickev-b-'))];
  const env = { DATABASE_URL: pg.url, HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_ALLOW_PRIVATE_URLS: '1', HOP_CLICK_FLUSH_MS: '100' };
  const sql = postgres(pg.url, { max: 2, onnotice: () => {} });
  const first = await startServer({ dataDir: dirs[0], env });
  let second: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const t = await team('pro', first.url);
    const params = { workspaceId: t.workspaceId };
    await t.api.call('createWebhook', { params, body: { url: `${receiver.url}/clicks`, events: ['link.clicked'] } });
    const { data: link } = await t.api.call('createLink', { params, body: { url: 'https://example.com/produced-once' } });
    const path = new URL(link.shortUrl).pathname;

    // Hold a SHARE lock on the cursor: a run can read it and write its events and deliveries, but
    // its move of the cursor waits, with the events written and uncommitted.
    const gate = await sql.reserve();
    await gate`begin`;
    await gate`lock table click_event_cursor in share mode`;

    for (let v = 0; v < VISITS + BOTS; v++) {
      const res = await fetch(`${first.url}${path}`, {
        redirect: 'manual', headers: { 'user-agent': v < VISITS ? BROWSER_UA.desktopChrome : BROWSER_UA.googlebot },
      });
      assert.equal(res.status, 302);
    }
    const total = VISITS + BOTS;
    await eventually(async () => ((await sql`select count(*)::int as n from clicks`)[0].n === total ? true : undefined), 10_000, 'every click in the log');
    // The first server's run is stuck at its cursor update, after writing its events.
    await eventually(async () => {
      const [w] = await sql`select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
        where c.relname = 'click_event_cursor' and not l.granted`;
      return w.n > 0 ? true : undefined;
    }, 10_000, 'a run waiting on the cursor');
    assert.equal(receiver.received.length, 0, 'nothing delivered from an uncommitted run');

    second = await startServer({ dataDir: dirs[1], env });
    first.child.kill('SIGKILL');
    await first.exited;
    await gate`commit`;
    gate.release();

    // The second server produces the range again, and its dispatcher delivers it.
    await eventually(async () => (receiver.received.length >= total ? true : undefined), 30_000,
      `${total} deliveries (have ${receiver.received.length})`);
    const [r] = await sql`select (select last_id from click_event_cursor) = (select max(id) from clicks) as done,
      (select count(*)::int from events where type = 'link.clicked') as events`;
    assert.deepEqual(r, { done: true, events: total });
    // A moment more for a second copy of anything to show up.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const bodies = receiver.received.map((q) => JSON.parse(q.body));
    assert.equal(new Set(bodies.map((e) => e.id)).size, total, 'one event per click');
    assert.equal(new Set(receiver.received.map((q) => q.headers[WEBHOOK_HEADERS.deliveryId])).size, receiver.received.length, 'no delivery twice');
    assert.equal(bodies.filter((e) => e.data.isBot).length, BOTS);
    for (const e of bodies) {
      assert.equal(e.type, 'link.clicked');
      assert.deepEqual([e.data.linkId, e.data.slug, e.data.destination, e.data.target], [link.id, link.slug, 'https://example.com/produced-once', 'default']);
    }
  } finally {
    await sql.end({ timeout: 1 });
    if (first.child.exitCode === null && first.child.signalCode === null) await first.stop();
    if (second) await second.stop();
    await receiver.close();
    pg.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});
