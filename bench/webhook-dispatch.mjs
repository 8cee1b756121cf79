#!/usr/bin/env node
// Webhook dispatch on PostgreSQL, run as a fleet does: an API process takes the changes (links
// created through the API, `link.created` subscribed) and a dispatcher process delivers them to a
// local HTTP receiver that checks every signature. Two figures:
// - latency: the time from the change (the create request sent) to the delivery arriving at the
//   receiver, for links created one at a time (p50, p99);
// - throughput: a backlog of link.created deliveries drained by the dispatcher, events/s from the
//   first arrival to the last, against the same receiver hit directly by a plain undici loop with
//   the same bodies, headers and concurrency (64, the most a dispatcher sends one host at once),
//   alternately;
// - click volume (bench/lib/click-volume.mjs): visits at a fixed rate to links whose workspace has
//   a link.clicked webhook, on PostgreSQL and on the embedded database: deliveries a second, lag
//   p50/p99 during the load, drain time after it; and the redirect's ratio to a bare 302 at full
//   speed with the webhook active (its clicks delivered meanwhile) and disabled.
// Usage: node bench/webhook-dispatch.mjs   (HOP_BENCH_EVENTS=500, HOP_BENCH_CLICK_SECONDS=10, HOP_BENCH_PAIRS=2 shorten
// it while developing; HOP_BENCH_ONLY=backlog, clicks or redirect runs one part)
import { createServer } from 'node:http';
import { Agent, request } from 'undici';
import { signWebhook, verifyWebhook } from '../shared/dist/webhook-signature.js';
import { freshPostgres, seedLinks, startHop } from './lib/servers.mjs';
import { clickVolume, redirectWhileDelivering } from './lib/click-volume.mjs';
import { fmt, readSection, writeSection } from './lib/measure.mjs';
import { cpuMeter } from './lib/cpu.mjs';

// A backlog this deep is drained at the dispatcher's steady pace: the fresh process's start (its
// thread, its cold code, each host's concurrency growing from 4) is a few hundred of its deliveries.
const EVENTS = Number(process.env.HOP_BENCH_EVENTS ?? 20_000);
const LATENCY_SAMPLES = Math.max(50, Math.min(200, Math.round(EVENTS / 15)));
const ROUNDS = 2;
const CONCURRENCY = 64;
const ONLY = process.env.HOP_BENCH_ONLY;
const CLICK_SECONDS = Number(process.env.HOP_BENCH_CLICK_SECONDS ?? 0);
const SECRET = 'bench-secret-0123456789abcdef0123456789';

const pg = freshPostgres();
const profile = process.env.HOP_BENCH_PROFILE;
// One fleet: the processes agree on the short domain (by default each names its own port).
const common = { DATABASE_URL: pg.url, HOP_ALLOW_PRIVATE_URLS: '1', HOP_WEBHOOK_RETRY_SCALE: '0.01', HOP_SECRET: SECRET, HOP_SHORT_DOMAIN: 'hop.test' };
// The API process takes the changes and dispatches nothing; dispatchers come and go per phase.
const api = await startHop({ ...common, HOP_DISABLE: 'dispatcher,jobs' });
const startDispatcher = () => startHop({ ...common, HOP_DISABLE: 'api,redirector,jobs' },
  profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []);

// The receiver: records when each event arrives (by the link's slug) and checks the signature.
let webhookSecret = '';
const arrivals = new Map();
let badSignatures = 0;
let duplicates = 0;
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = performance.now();
    const raw = Buffer.concat(chunks).toString();
    if (webhookSecret && !verifyWebhook(webhookSecret, req.headers, raw).ok) badSignatures++;
    const slug = JSON.parse(raw).data?.link?.slug ?? `direct-${arrivals.size}`;
    if (arrivals.has(slug)) duplicates++;
    else arrivals.set(slug, at);
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

async function call(method, path, token, body) {
  const res = await fetch(api.url + path, {
    method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const waitFor = async (cond, timeoutMs, what) => {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

let dispatcher;
try {
  const { token, workspaceId } = await seedLinks(api.url, 0);
  const hook = await call('POST', `/v1/workspaces/${workspaceId}/webhooks`, token, { url: receiverUrl, events: ['link.created'] });
  webhookSecret = hook.secret;
  const linksPath = `/v1/workspaces/${workspaceId}/links`;
  const item = (slug) => ({ url: `https://example.com/launch/${slug}?utm_source=bench`, slug, title: `Launch ${slug}` });

  /** Creates `n` links in bulk, two requests at a time; returns their slugs. */
  async function backlog(prefix, n) {
    const slugs = Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    const batches = [];
    for (let i = 0; i < n; i += 100) batches.push(slugs.slice(i, i + 100));
    const worker = async () => {
      for (let b; (b = batches.shift());) {
        const results = await call('POST', `${linksPath}/bulk`, token, b.map(item));
        if (results.some((r) => !r.success)) throw new Error(`bulk create failed: ${JSON.stringify(results.find((r) => !r.success))}`);
      }
    };
    await Promise.all([worker(), worker()]);
    return slugs;
  }

  /** Hop: a fresh dispatcher process drains a backlog of `EVENTS` deliveries. */
  async function hopRound(round) {
    const slugs = await backlog(`tp${round}`, EVENTS);
    dispatcher = await startDispatcher();
    // CPU time, whatever else the shared machine runs: the dispatcher process's, PostgreSQL's (this
    // database's backends and the shared processes) and this process's (the receiver).
    const meter = cpuMeter({ pids: [dispatcher.child.pid], postgres: pg.name });
    const own = process.cpuUsage();
    await waitFor(() => slugs.every((s) => arrivals.has(s)), 300_000, 'the backlog to be delivered');
    const cpu = meter.stop();
    const receiverCpu = process.cpuUsage(own);
    const times = slugs.map((s) => arrivals.get(s));
    const first = Math.min(...times);
    const last = Math.max(...times);
    await dispatcher.stop();
    dispatcher = undefined;
    return {
      eps: (slugs.length - 1) / ((last - first) / 1000),
      dispatcherUs: (cpu.own * 1000) / slugs.length, postgresUs: (cpu.postgres * 1000) / slugs.length,
      receiverUs: (receiverCpu.user + receiverCpu.system) / slugs.length,
    };
  }

  /** Baseline: the same receiver, POSTed to directly by a plain undici loop over keep-alive. */
  async function directRound(round) {
    const sample = JSON.stringify({ id: 'evt_x', type: 'link.created', timestamp: new Date().toISOString(), workspaceId, data: { link: { slug: 'x', url: 'https://example.com/launch/x?utm_source=bench', title: 'Launch x' } } });
    const agent = new Agent({ connections: CONCURRENCY });
    const keys = Array.from({ length: EVENTS }, (_, i) => `direct${round}-${i}`);
    const started = performance.now();
    const own = process.cpuUsage();
    const worker = async () => {
      for (let k; (k = keys.shift());) {
        const body = sample.replace('"slug":"x"', `"slug":"${k}"`);
        const ts = Math.floor(Date.now() / 1000);
        const res = await request(receiverUrl, {
          method: 'POST', dispatcher: agent, body,
          headers: { 'content-type': 'application/json', 'x-hop-webhook-signature': signWebhook(webhookSecret, ts, body), 'x-hop-webhook-timestamp': String(ts) },
        });
        await res.body.dump();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const elapsed = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(own);
    await agent.close();
    return { eps: EVENTS / elapsed, loopUs: (cpu.user + cpu.system) / EVENTS };
  }

  // Latency: one link at a time, 5 ms apart, with a dispatcher running.
  async function latencyPhase() {
    dispatcher = await startDispatcher();
    const sent = new Map();
    const answered = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const slug = `lat-${i}`;
      const t = performance.now();
      sent.set(slug, t);
      await call('POST', linksPath, token, item(slug));
      answered.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
    await waitFor(() => [...sent.keys()].every((s) => arrivals.has(s)), 60_000, 'the single-link deliveries');
    await dispatcher.stop();
    dispatcher = undefined;
    return { latencies: [...sent].map(([s, t]) => arrivals.get(s) - t), answered };
  }

  if (ONLY !== 'clicks' && ONLY !== 'redirect') await backlogAndLatency();
  async function backlogAndLatency() {
  process.stderr.write(`latency: ${LATENCY_SAMPLES} links one at a time...\n`);
  const { latencies, answered } = await latencyPhase();
  const runs = { hop: [], direct: [] };
  for (let i = 0; i < ROUNDS; i++) {
    process.stderr.write(`round ${i + 1}: ${EVENTS} events direct, then through Hop...\n`);
    runs.direct.push(await directRound(i));
    runs.hop.push(await hopRound(i));
  }
  const avg = (rs, f = (r) => r.eps) => rs.reduce((s, r) => s + f(r), 0) / rs.length;
  const h = avg(runs.hop);
  const d = avg(runs.direct);
  const load = (await import('node:os')).loadavg().map((n) => n.toFixed(1)).join(', ');
  const lines = [
    `PostgreSQL; an API process and a dispatcher process on one database, as a fleet runs them; an HTTP receiver on loopback that checks every signature and answers 204. Throughput: a backlog of ${EVENTS.toLocaleString()} \`link.created\` deliveries (links made by the bulk API) drained by a fresh dispatcher, first arrival to last, ${ROUNDS} rounds alternating with the baseline. Latency: ${LATENCY_SAMPLES} links created one at a time, 5 ms apart, from the create request sent to the delivery received.`,
    '',
    '| | events/s | p50 | p99 |',
    '|---|---|---|---|',
    `| plain undici loop, ${CONCURRENCY} at a time, keep-alive (baseline) | ${fmt(d)} | | |`,
    `| Hop dispatcher, backlog | ${fmt(h)} | | |`,
    `| **ratio** | **${fmt(h / d, 2)}** | | |`,
    `| Hop: change → receiver, one link at a time | | **${fmt(percentile(latencies, 50), 1)} ms** | **${fmt(percentile(latencies, 99), 1)} ms** |`,
    `| of which the create request (sent → 201) | | ${fmt(percentile(answered, 50), 1)} ms | ${fmt(percentile(answered, 99), 1)} ms |`,
    '',
    `CPU time a delivery (user + system, whatever else the machine ran; load average ${load} at the end): the plain loop, client and receiver in one process, ${fmt(avg(runs.direct, (r) => r.loopUs))} µs; through Hop, the dispatcher process ${fmt(avg(runs.hop, (r) => r.dispatcherUs))} µs, PostgreSQL ${fmt(avg(runs.hop, (r) => r.postgresUs))} µs and the receiver ${fmt(avg(runs.hop, (r) => r.receiverUs))} µs. Events/s swing with the machine's load (the loop is one process; Hop's round trips cross three), the CPU figures much less.`,
    '',
    `Bad signatures: ${badSignatures}; duplicate deliveries: ${duplicates}.`,
  ].join('\n');
  console.log(lines);
  writeSection('Webhook dispatch (PostgreSQL)', lines);
  if (badSignatures || duplicates) process.exitCode = 1;
  }
} finally {
  await dispatcher?.stop();
  await api.stop();
  receiver.close();
  pg.drop();
}

if (ONLY !== 'backlog') {
  // The targets: 1,000 clicks/s for 60 s on PostgreSQL, 500/s for 30 s embedded.
  const runs = [];
  if (ONLY !== 'redirect') {
    const clickPg = freshPostgres();
    try {
      process.stderr.write('click volume, PostgreSQL...\n');
      runs.push({ db: 'PostgreSQL', ...await clickVolume({ env: { DATABASE_URL: clickPg.url, HOP_ALLOW_PRIVATE_URLS: '1', HOP_SECRET: SECRET }, rate: 1000, seconds: CLICK_SECONDS || 60 }) });
    } finally {
      clickPg.drop();
    }
    process.stderr.write('click volume, embedded...\n');
    runs.push({ db: 'embedded', ...await clickVolume({ env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_SECRET: SECRET }, rate: 500, seconds: CLICK_SECONDS || 30 }) });
  }
  process.stderr.write('redirect while its clicks are delivered, PostgreSQL...\n');
  const redirectPg = freshPostgres();
  let redirect;
  try {
    redirect = await redirectWhileDelivering({ env: { DATABASE_URL: redirectPg.url, HOP_ALLOW_PRIVATE_URLS: '1', HOP_SECRET: SECRET }, postgres: redirectPg.name, pairs: Number(process.env.HOP_BENCH_PAIRS ?? 8) });
  } finally {
    redirectPg.drop();
  }
  const load = (await import('node:os')).loadavg().map((n) => n.toFixed(1)).join(', ');
  const lines = runs.length === 0 ? '' : [
    `One Hop process (API, redirector and dispatcher, as \`npm start\` runs them); 50 links in a workspace with one \`link.clicked\` webhook to an HTTP receiver on loopback that answers 204; visits at a fixed rate from 64 keep-alive connections. Lag: from the click's time (\`clickedAt\`) to the delivery's arrival, for deliveries that arrived while the load lasted. Drain: from the end of the load to the last delivery. Load: the machine's 1-minute load average (2 cores, shared) when the load ended; ${load} at the end of the bench.`,
    '',
    '| database | visits/s × s | redirects | delivered | deliveries/s during load | lag p50 | lag p99 | drain after load | duplicates | load |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...runs.map((r) => `| ${r.db} | ${fmt(r.rate)} × ${r.seconds} | ${fmt(r.redirected)}${r.failed ? ` (${r.failed} failed)` : ''} | ${fmt(r.delivered)} | ${fmt(r.deliveredPerSecond)} | ${fmt(r.lagP50 / 1000, 2)} s | **${fmt(r.lagP99 / 1000, 2)} s** | **${Number.isNaN(r.drainSeconds) ? 'not drained' : `${fmt(r.drainSeconds, 1)} s`}** | ${r.duplicates} | ${fmt(r.loadAverage, 1)} |`),
  ].join('\n');
  const mean = (rs, f) => rs.reduce((t, r) => t + f(r), 0) / rs.length;
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const row = (name, rs) => `| ${name} | ${fmt(mean(rs, (r) => r.rps))} | ${fmt(mean(rs, (r) => r.baseline))} | ${fmt(median(rs.map((r) => r.ratio)), 2)} | ${fmt(mean(rs, (r) => r.cpuDuringUs))} µs | ${fmt(mean(rs, (r) => r.cpuAllUs))} µs | ${fmt(mean(rs, (r) => r.delivered))} | ${fmt(mean(rs, (r) => r.after))} | ${fmt(mean(rs, (r) => r.caughtUpSeconds), 1)} s | ${fmt(mean(rs, (r) => r.loadAverage), 1)} |`;
  const falls = redirect.falls;
  const redirectLines = [
    '',
    `The redirect while its clicks are delivered (PostgreSQL, one Hop process, 50 links): ${falls.length} pairs of rounds of visits at full speed (50 connections, ${fmt(redirect.on[0] ? redirect.on.reduce((t, r) => t + r.redirects, 0) / redirect.on.length : 0)} redirects a round on average), the workspace's \`link.clicked\` webhook active in one round of a pair and disabled in the other, the order alternating, each round of Hop right after one of a bare Fastify answering a fixed 302. A pair's fall is its disabled round's ratio less its active round's; the figure is the median over the pairs (each pair's: ${falls.map((f) => fmt(f, 2)).join(', ')}). CPU a redirect: Hop's process and PostgreSQL's, during the round, and until its clicks were all produced, delivered and rolled up (each round starts once the last one's are, so no round pays for another's). While the redirects keep its main thread busy, Hop's click event producer holds back and catches up once the load ends: "after it" counts the deliveries from the end of the round's load until every click was delivered, and the next column times the last of them.`,
    '',
    '| webhook | Hop redirects/s | bare 302/s | ratio (median) | CPU a redirect, during the round | CPU a redirect, until delivered | deliveries during the round | after it | all delivered after the round | load |',
    '|---|---|---|---|---|---|---|---|---|---|',
    row('disabled', redirect.off),
    row('active', redirect.on),
    `| **fall (median of pairs)** | | | **${fmt(median(falls), 2)}** | | | | | | |`,
  ];
  console.log(lines + '\n' + redirectLines.join('\n'));
  // HOP_BENCH_ONLY=redirect replaces the redirect's part of the section and keeps the click volume table.
  const volume = runs.length ? lines : readSection('Webhooks at click volume').split('\nThe redirect while')[0].trim();
  writeSection('Webhooks at click volume', volume + '\n' + redirectLines.join('\n'));
  if (runs.some((r) => r.delivered < r.redirected || r.duplicates)) process.exitCode = 1;
  // Every click of an active round is delivered, during the round or once the load eased.
  if (redirect.on.some((r) => r.delivered + r.after < r.redirects)) process.exitCode = 1;
}
