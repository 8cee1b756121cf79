// A server killed with SIGKILL under load, with webhook deliveries queued and in flight: a server
// restarted on the same data delivers every event, and none twice except an attempt that was in
// flight when the first one died (its answer was never recorded, so it is sent again). To be sure
// that attempts are in flight at the kill, the endpoint stops answering just before it: those
// attempts reached it but were never acknowledged, so they are not delivered until sent again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBHOOK_HEADERS } from '@hop/shared';
import { createHopClient, type HopClient } from '@hop/shared/client';
import { ADMIN_TOKEN, eventually, metricSum, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver, type ReceivedRequest } from '../helpers/webhook-receiver.js';
import { browserVisit, sleep, startLoad, stopLoads, tally, untilCount } from '../helpers/load.js';

/** Every link of the workspace: the links whose creation committed, answered or not. */
async function allLinkIds(api: HopClient, workspaceId: string): Promise<Set<string>> {
  const { data } = await api.paginate('listLinks', { params: { workspaceId }, query: { limit: 100 } });
  return new Set(data.map((l) => l.id));
}

test('SIGKILL under load with deliveries pending: after a restart on the same data every event is delivered, none twice beyond the attempt in flight', { timeout: 180_000 }, async () => {
  // Delivered means answered 2xx: `acked` holds those. While `stalling`, the endpoint holds every
  // request unanswered, as one that hangs would, and answers none of them before the kill.
  const acked: ReceivedRequest[] = [];
  let stalling = false;
  let stalled = 0;
  let unstall!: () => void;
  const stallOver = new Promise<void>((r) => (unstall = r));
  const receiver = await startReceiver({
    respond: async (r) => {
      if (stalling) {
        stalled++;
        await stallOver;
        return 503;
      }
      acked.push(r);
      return 200;
    },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-fault-kill-'));
  const env = { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN };
  let first: Awaited<ReturnType<typeof startServer>> | undefined;
  let second: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    first = await startServer({ dataDir, env });
    const t = await team('pro', first.url);
    const ws = { workspaceId: t.workspaceId };
    await t.api.call('createWebhook', { params: ws, body: { url: `${receiver.url}/kill`, events: ['link.created'] } });
    const { data: hot } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/hot' } });
    const hotUrl = `${first.url}${new URL(hot.shortUrl).pathname}`;

    // The loads stop themselves after two minutes at the latest (a slow host takes a while to
    // deliver 30; see untilCount).
    const visits = startLoad(20, () => browserVisit(hotUrl), 120_000);
    const creators = startLoad(6, async (w, i) => {
      const res = await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: `https://example.com/kill/${w}/${i}` } });
      return res.status;
    }, 120_000);
    // Deliveries are flowing; then the endpoint hangs, and the server dies with attempts on it.
    await untilCount(() => acked.length, 30, 20_000, 'deliveries under load',
      () => `; link creations ${JSON.stringify(tally(creators.outcomes))}, visits ${JSON.stringify(tally(visits.outcomes))}`);
    stalling = true;
    // More than one attempt held at once: the dispatcher goes on sending while some hang.
    const heldSince = Date.now();
    while (stalled < 4 && Date.now() - heldSince < 20_000) await sleep(50);
    assert.ok(stalled >= 4, `attempts in flight: ${stalled} held, ${creators.outcomes.length} links created so far`);
    first.child.kill('SIGKILL');
    await first.exited;
    stalling = false;
    unstall();
    await Promise.all([visits.stop(), creators.stop()]);

    const restartAt = Date.now();
    second = await startServer({ dataDir, env });
    const api = createHopClient({ baseUrl: second.url, token: t.token });
    const links = await allLinkIds(api, t.workspaceId);
    const created = (r: (typeof receiver.received)[number]) => (JSON.parse(r.body) as { data: { link: { id: string } } }).data.link.id;
    const before = acked.filter((r) => r.at < restartAt).length;
    assert.ok(before < links.size, `deliveries were pending at the kill (${before} of ${links.size} delivered)`);

    await eventually(async () => (new Set(acked.map(created)).size >= links.size ? true : undefined), 30_000,
      `a delivery for each of the ${links.size} links (have ${new Set(acked.map(created)).size})`);
    // A second copy of anything would be on its way while a delivery is still pending.
    await eventually(async () => ((await metricSum(second!.url, 'hop_webhook_deliveries', { status: 'pending' })) === 0 ? true : undefined),
      30_000, 'no delivery pending');

    const byDelivery = new Map<string, number[]>();
    const deliveriesOfLink = new Map<string, Set<string>>();
    for (const r of acked) {
      const id = String(r.headers[WEBHOOK_HEADERS.deliveryId]);
      byDelivery.set(id, [...(byDelivery.get(id) ?? []), r.at]);
      const link = created(r);
      assert.ok(links.has(link), `an event for a link that exists: ${link}`);
      deliveriesOfLink.set(link, (deliveriesOfLink.get(link) ?? new Set()).add(id));
    }
    assert.deepEqual([...links].filter((l) => !deliveriesOfLink.has(l)), [], 'every link.created delivered');
    for (const [link, ids] of deliveriesOfLink) assert.equal(ids.size, 1, `one delivery for ${link}`);
    // A delivery that came twice was the first process's attempt in flight: its first copy arrived
    // before the restart, and it came at most twice.
    const repeated = [...byDelivery].filter(([, at]) => at.length > 1);
    for (const [id, at] of repeated) {
      assert.equal(at.length, 2, `${id} at most twice`);
      assert.ok(at[0] < restartAt, `${id}: only an attempt in flight at the kill repeats`);
    }
    assert.ok(repeated.length <= 16, `at most the attempts in flight repeat (${repeated.length})`);
  } finally {
    await stopLoads();
    if (first && first.child.exitCode === null) first.child.kill('SIGKILL');
    const code = second ? await second.stop() : 0;
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
    assert.equal(code, 0);
  }
});
