// The click-volume scenario of bench/webhook-dispatch.mjs: visits at a fixed rate to links whose
// workspace has a `link.clicked` webhook to a loopback receiver, on one Hop process (API,
// redirector and dispatcher, as `npm start` runs them). Reports deliveries a second, the lag from
// the click to its delivery while the load lasts (p50, p99), and the time the backlog takes to
// drain after the load ends.
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { Pool } from 'undici';
import { metricValue, metricValues, seedLinks, startBaseline, startHop, pick, randomVisits, USER_AGENTS } from './servers.mjs';
import { load } from './measure.mjs';
import { cpuMeter } from './cpu.mjs';

const percentile = (xs, p) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One run: `rate` visits a second for `seconds`, then waits (up to `drainLimitS`) for every delivery. */
export async function clickVolume({ env, rate, seconds, drainLimitS = 120, nodeArgs = [] }) {
  const arrivals = new Map(); // webhook-id → arrival (ms since the epoch)
  const lags = [];
  let duplicates = 0;
  let loadEnd = Infinity;
  const receiver = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const id = String(req.headers['webhook-id']);
      if (arrivals.has(id)) duplicates++;
      else {
        arrivals.set(id, at);
        const event = JSON.parse(Buffer.concat(chunks).toString());
        if (at <= loadEnd) lags.push(at - Date.parse(event.data.clickedAt));
      }
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const hop = await startHop(env, nodeArgs);
  try {
    const { token, workspaceId, slugs } = await seedLinks(hop.url, 50);
    const res = await fetch(`${hop.url}/v1/workspaces/${workspaceId}/webhooks`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: `http://127.0.0.1:${receiver.address().port}/clicks`, events: ['link.clicked'] }),
    });
    if (!res.ok) throw new Error(`createWebhook: ${res.status} ${await res.text()}`);

    // Visits at a fixed rate: every 10 ms, as many as are due by then, not waiting for answers.
    const pool = new Pool(hop.url, { connections: 64, pipelining: 1 });
    let sent = 0;
    let redirected = 0;
    let failed = 0;
    const started = Date.now();
    const total = Math.round(rate * seconds);
    const inFlight = new Set();
    while (sent < total) {
      const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * rate));
      for (; sent < due; sent++) {
        const p = pool.request({ method: 'GET', path: `/${pick(slugs)}`, headers: { 'user-agent': pick(USER_AGENTS) } })
          .then(async (r) => {
            await r.body.dump();
            if (r.statusCode === 302) redirected++;
            else failed++;
          }, () => failed++)
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await sleep(10);
    }
    await Promise.all(inFlight);
    loadEnd = Date.now();
    const duringLoad = arrivals.size;
    const loadSeconds = (loadEnd - started) / 1000;
    const deadline = loadEnd + drainLimitS * 1000;
    while (arrivals.size < redirected && Date.now() < deadline) await sleep(50);
    let last = loadEnd;
    for (const at of arrivals.values()) if (at > last) last = at;
    await pool.close();
    return {
      rate, seconds, redirected, failed, delivered: arrivals.size, duplicates,
      deliveredPerSecond: duringLoad / loadSeconds,
      lagP50: percentile(lags, 50), lagP99: percentile(lags, 99),
      drainSeconds: arrivals.size >= redirected ? (last - loadEnd) / 1000 : NaN,
      // The machine is shared: its 1-minute load average when the load ended.
      loadAverage: loadavg()[0],
    };
  } finally {
    await hop.stop();
    receiver.closeAllConnections();
    receiver.close();
  }
}

/**
 * The redirect's own ratio to the bare 302 while its clicks are delivered: pairs of rounds of
 * visits at full speed (autocannon) to links whose workspace has a `link.clicked` webhook to a
 * loopback receiver, the webhook active in one round of a pair and disabled in the other (the
 * order alternating from pair to pair, so a drift of the machine's load favours neither), each
 * Hop round right after one of the bare Fastify's. A pair's fall is its disabled round's ratio less
 * its active round's; the median over the pairs is the figure (one round that another process
 * disturbed moves it little). CPU time a redirect, Hop's process and PostgreSQL's (`postgres`: the
 * database's name), is counted twice: during the round, and until its clicks were all delivered.
 */
export async function redirectWhileDelivering({ env, postgres, pairs = 8, seconds = 5 }) {
  let received = 0;
  let lastArrival = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      lastArrival = Date.now();
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const baseline = await startBaseline();
  const hop = await startHop(env);
  try {
    const { token, workspaceId, slugs } = await seedLinks(hop.url, 50);
    const hooks = `${hop.url}/v1/workspaces/${workspaceId}/webhooks`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const created = await fetch(hooks, {
      method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${receiver.address().port}/clicks`, events: ['link.clicked'] }),
    });
    if (!created.ok) throw new Error(`createWebhook: ${created.status} ${await created.text()}`);
    const hookId = (await created.json()).data.id;
    const setActive = async (isActive) => {
      const res = await fetch(`${hooks}/${hookId}`, { method: 'PATCH', headers, body: JSON.stringify({ isActive }) });
      if (!res.ok) throw new Error(`updateWebhook: ${res.status} ${await res.text()}`);
      // The producer reads who wants click events at each run: a moment for the change to be seen.
      await sleep(1_500);
    };
    // Until every click is written, produced and rolled up and a second passes without a delivery:
    // the next round starts with an idle producer, dispatcher and aggregation job. While the
    // redirects kept the cores busy the producer held back; the time this takes after an active
    // round is the catch-up. Without waiting for the roll-up, a round's clicks were rolled up
    // during whichever round came next (the job lets clicks wait up to ten seconds), after a short
    // catch-up (a disabled round) but not after a long one: each pair's order moved its fall.
    const quiet = async () => {
      for (let last = -1; ; await sleep(1_000)) {
        const waiting = (await metricValues(hop.url, ['hop_click_buffer_depth', 'hop_click_events_pending', 'hop_click_rollup_pending', 'hop_click_counters_pending']))
          .reduce((t, v) => t + (v ?? 0), 0);
        if (waiting === 0 && received === last) return;
        last = received;
      }
    };
    const warm = randomVisits(slugs);
    await load({ url: hop.url, requests: warm, duration: 3 });
    await load({ url: baseline.url, requests: warm, duration: 2 });
    // The warm-up's clicks (the webhook is active from its creation) are delivered before the rounds.
    await quiet();
    const runs = { on: [], off: [], falls: [] };
    for (let i = 0; i < pairs; i++) {
      const pair = {};
      for (const active of i % 2 === 0 ? [true, false] : [false, true]) {
        // Each round ends once its clicks are delivered (quiet, below): a disabled webhook would hold its backlog.
        await setActive(active);
        const b = await load({ url: baseline.url, requests: randomVisits(slugs), duration: seconds });
        const before = received;
        const meter = cpuMeter({ pids: [hop.child.pid], postgres });
        const h = await load({ url: hop.url, requests: randomVisits(slugs), duration: seconds });
        const during = meter.read();
        const delivered = received - before;
        const loadAverage = loadavg()[0];
        const ended = Date.now();
        await quiet();
        const all = meter.stop();
        const perRedirect = (c) => ((c.own + c.postgres) * 1000) / h.total;
        const run = {
          loadAverage, ratio: h.rps / b.rps, rps: h.rps, baseline: b.rps, delivered, failed: h.errors + h.non2xx3xx,
          redirects: h.total, after: received - before - delivered, caughtUpSeconds: Math.max(0, lastArrival - ended) / 1000,
          cpuDuringUs: perRedirect(during), cpuAllUs: perRedirect(all),
        };
        (active ? runs.on : runs.off).push(run);
        pair[active ? 'on' : 'off'] = run;
      }
      runs.falls.push(pair.off.ratio - pair.on.ratio);
    }
    return runs;
  } finally {
    await hop.stop();
    await baseline.stop();
    receiver.closeAllConnections();
    receiver.close();
  }
}
