// Analytics read two halves, the daily rollups the aggregation job writes and the clicks it has not
// rolled up yet; both must answer the same. In process (test/helpers/in-process.ts): the test
// flushes the click buffer and runs the job itself, so it compares the same clicks pending, rolled
// up, and half and half, with no waiting. Each dimension's fallback (no country, no referrer, a
// desktop, the default target) has no rollup row of its own: it is the total less the dimension's
// other keys (docs/adr/, "Rollups keep no row for what the total implies").
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateClicks } from '../../server/src/domain/clicks/click-aggregation.js';
import { CLICK_LOG_GATE } from '../../server/src/domain/clicks/click-log.js';
import { clickAggregationJob, MIN_CLICKS } from '../../server/src/jobs/click-aggregation-job.js';
import { clickPartitionsJob } from '../../server/src/jobs/click-partitions-job.js';
import { inProcessApi, type InProcessApi } from '../helpers/in-process.js';

const SHORT = 'short.test';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0';
const EDGE = `${'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'} Edg/126.0`;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const METRICS_TOKEN = 'rollup-metrics-token-0123456789';
let api: InProcessApi;

before(async () => {
  api = await inProcessApi({ HOP_SHORT_DOMAIN: SHORT, HOP_RATE_LIMIT_SCALE: '1000', HOP_METRICS_TOKEN: METRICS_TOKEN });
});
after(async () => {
  await api.close();
});

async function smartLink() {
  const email = `rollup-${Date.now()}@example.test`;
  const signup = await api.request('POST', '/v1/auth/signup', { body: { email, password: 'correct horse battery', name: 'Owner' } });
  assert.equal(signup.status, 201, JSON.stringify(signup.body));
  const token = signup.body.data.token as string;
  const ws = await api.request('POST', '/v1/workspaces', { token, body: { name: 'W', slug: `w-${Date.now()}` } });
  assert.equal(ws.status, 201, JSON.stringify(ws.body));
  const workspaceId = ws.body.data.id as string;
  const created = await api.request('POST', `/v1/workspaces/${workspaceId}/links`, {
    token, body: { url: 'https://example.com/default', ios: 'https://example.com/ios', rules: [{ when: { language: 'de' }, url: 'https://example.com/de' }] },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { token, workspaceId, link: created.body.data as { id: string; slug: string } };
}

async function visit(slug: string, ua: string, language?: string, referer?: string) {
  const headers = { host: SHORT, 'user-agent': ua, ...(language ? { 'accept-language': language } : {}), ...(referer ? { referer } : {}) };
  const res = await api.request('GET', `/${slug}`, { headers });
  assert.equal(res.status, 302);
}

const rollUp = () => api.services.db.transaction((tx) => aggregateClicks(tx));

/** A link's analytics over the last week. */
async function linkAnalytics(token: string, workspaceId: string, linkId: string) {
  const res = await api.request('GET', `/v1/workspaces/${workspaceId}/links/${linkId}/analytics?days=7`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

test('analytics answer the same for clicks pending, rolled up, or both; unknown values and the default target are the total less the other keys', async () => {
  const { token, workspaceId, link } = await smartLink();
  const analytics = () => linkAnalytics(token, workspaceId, link.id);
  // Chrome twice (one visitor, first from GitHub), Firefox (default target), Chrome in German
  // (rule:0), an iPhone (ios). No country: the in-process server has no geo database.
  await visit(link.slug, CHROME, undefined, 'https://github.com/hop/readme');
  for (const [ua, language] of [[CHROME], [FIREFOX], [CHROME, 'de'], [IPHONE]] as const) await visit(link.slug, ua, language);
  await api.services.clicks.flush();
  const pending = await analytics();
  assert.equal(pending.totalClicks, 5);
  assert.deepEqual(pending.targets, [
    { key: 'default', clicks: 3, uniqueClicks: 2 },
    { key: 'ios', clicks: 1, uniqueClicks: 1 },
    { key: 'rule:0', clicks: 1, uniqueClicks: 0 },
  ]);
  assert.deepEqual(pending.referrers, [{ key: null, clicks: 4, uniqueClicks: 2 }, { key: 'github.com', clicks: 1, uniqueClicks: 1 }]);
  assert.deepEqual(pending.countries, [{ key: null, clicks: 5, uniqueClicks: 3 }]);
  assert.deepEqual(pending.devices, [{ key: 'desktop', clicks: 4, uniqueClicks: 2 }, { key: 'mobile', clicks: 1, uniqueClicks: 1 }]);

  await rollUp();
  assert.deepEqual(await analytics(), pending, 'rolled up as they were pending');
  const [{ n }] = await api.services.db.query<{ n: number }>(
    `select count(*)::int as n from click_rollups where link_id = $1
       and ((dimension = 'target' and key = 'default') or (dimension = 'device' and key = 'desktop') or (dimension <> 'total' and key = ''))`,
    [link.id]);
  assert.equal(n, 0, 'no rollup row for a fallback value');

  // Two of the same visitors (the iPhone's app link wins over the German rule) and a new one, left
  // pending on top of the rollups.
  for (const [ua, language] of [[FIREFOX], [IPHONE, 'de'], [EDGE]] as const) await visit(link.slug, ua, language);
  await api.services.clicks.flush();
  const both = await analytics();
  assert.equal(both.totalClicks, 8);
  assert.equal(both.uniqueClicks, 4);
  assert.deepEqual(both.targets, [
    { key: 'default', clicks: 5, uniqueClicks: 3 },
    { key: 'ios', clicks: 2, uniqueClicks: 1 },
    { key: 'rule:0', clicks: 1, uniqueClicks: 0 },
  ]);
  await rollUp();
  assert.deepEqual(await analytics(), both, 'rolled up as they were half pending');
  const grouped = await api.request('GET', `/v1/workspaces/${workspaceId}/links/${link.id}/analytics?days=7&groupBy=target`, { token });
  assert.deepEqual(grouped.body.data.groups, both.targets);
});

test('a run writes one row per combination of device, browser and OS, and rows of the older per-dimension shape add up with them', async () => {
  const { token, workspaceId, link } = await smartLink();
  const analytics = () => linkAnalytics(token, workspaceId, link.id);
  for (const ua of [CHROME, CHROME, IPHONE, FIREFOX]) await visit(link.slug, ua);
  await api.services.clicks.flush();
  await rollUp();
  const rows = await api.services.db.query<{ day: string; key: string; clicks: number; uniques: number }>(
    `select day::text, replace(key, chr(31), '|') as key, clicks, uniques from click_rollups
     where link_id = $1 and dimension = 'agent' order by key`, [link.id]);
  assert.deepEqual(rows.map(({ key, clicks, uniques }) => ({ key, clicks, uniques })), [
    { key: 'desktop|Chrome|Windows', clicks: 2, uniques: 1 },
    { key: 'desktop|Firefox|Linux', clicks: 1, uniques: 1 },
    { key: 'mobile|Safari|iOS', clicks: 1, uniques: 1 },
  ]);
  const [{ n }] = await api.services.db.query<{ n: number }>(
    `select count(*)::int as n from click_rollups where link_id = $1 and dimension in ('total', 'device', 'browser', 'os')`, [link.id]);
  assert.equal(n, 0, 'no per-dimension row for what an agent row holds');

  // Rows as runs wrote them before agent rows existed, for the same day: a total of 5 clicks (3
  // unique), 2 of them on a phone, 4 in Chrome, 1 on Android. Both shapes add up.
  const day = rows[0].day;
  await api.services.db.query(
    `insert into click_rollups (link_id, workspace_id, day, dimension, key, clicks, uniques)
     values ($1, $2, $3, 'total', '', 5, 3), ($1, $2, $3, 'device', 'mobile', 2, 1),
       ($1, $2, $3, 'browser', 'Chrome', 4, 2), ($1, $2, $3, 'os', 'Android', 1, 1)`,
    [link.id, workspaceId, day]);
  const both = await analytics();
  assert.equal(both.totalClicks, 9);
  assert.equal(both.uniqueClicks, 6);
  assert.deepEqual(both.timeseries.find((d: { date: string }) => d.date === day), { date: day, clicks: 9, uniqueClicks: 6 });
  assert.deepEqual(both.devices, [{ key: 'desktop', clicks: 6, uniqueClicks: 4 }, { key: 'mobile', clicks: 3, uniqueClicks: 2 }]);
  assert.deepEqual(both.browsers, [
    { key: 'Chrome', clicks: 6, uniqueClicks: 3 },
    { key: null, clicks: 1, uniqueClicks: 1 },
    { key: 'Firefox', clicks: 1, uniqueClicks: 1 },
    { key: 'Safari', clicks: 1, uniqueClicks: 1 },
  ]);
  assert.deepEqual(both.os, [
    { key: 'Windows', clicks: 2, uniqueClicks: 1 },
    { key: null, clicks: 4, uniqueClicks: 2 },
    { key: 'Android', clicks: 1, uniqueClicks: 1 },
    { key: 'iOS', clicks: 1, uniqueClicks: 1 },
    { key: 'Linux', clicks: 1, uniqueClicks: 1 },
  ].sort((a, b) => b.clicks - a.clicks || (a.key ?? '').localeCompare(b.key ?? '')));
  const top = await api.request('GET', `/v1/workspaces/${workspaceId}/analytics?days=7`, { token });
  assert.equal(top.status, 200, JSON.stringify(top.body));
  assert.deepEqual(top.body.data.topLinks.map((t: { clicks: number; uniqueClicks: number }) => [t.clicks, t.uniqueClicks]), [[9, 6]]);
});

test("a run reads the clicks after the watermark through the log's index, never by scanning the log", async () => {
  // The embedded database never gathers statistics on its own: left to itself, the planner reads
  // a range of ids by scanning the whole month's partition, a cost that grows with the month.
  const { link } = await smartLink();
  await visit(link.slug, FIREFOX);
  await api.services.clicks.flush();
  const logScans = `select coalesce(sum(pg_stat_get_xact_numscans(t.relid)), 0)::int as n
    from pg_partition_tree('clicks') t where t.isleaf`;
  await api.services.db.transaction(async (tx) => {
    const [before] = await tx.query<{ n: number }>(logScans);
    const { from, to } = await aggregateClicks(tx);
    assert.ok(to > from, 'the run had clicks to roll up');
    const [afterRun] = await tx.query<{ n: number }>(logScans);
    assert.equal(afterRun.n, before.n, 'sequential scans of the click log during the run');
  });
});

test("a run finds the rollup rows it adds to through their key, never reading the rollups in full", async () => {
  // Rollups are merged in (MERGE): the planner chooses how to match a run's rows with the table's,
  // and a merge join or a hash of the whole table would grow with every link's history.
  const { link, workspaceId } = await smartLink();
  await api.services.db.query(
    `insert into click_rollups (link_id, workspace_id, day, dimension, key, clicks, uniques)
     select $1, $2, current_date - 1 - (i % 20), 'referrer', 'r' || i, 1, 1 from generate_series(1, 3000) i`,
    [link.id, workspaceId],
  );
  await api.services.db.query('analyze click_rollups');
  await rollUp();
  await visit(link.slug, FIREFOX, undefined, 'https://news.example/a');
  await api.services.clicks.flush();
  const read = `select pg_stat_get_xact_tuples_returned('click_rollups_pkey'::regclass)::int as entries,
    pg_stat_get_xact_numscans('click_rollups'::regclass)::int as scans`;
  await api.services.db.transaction(async (tx) => {
    const [before] = await tx.query<{ entries: number; scans: number }>(read);
    const { from, to } = await aggregateClicks(tx);
    assert.ok(to > from, 'the run had clicks to roll up');
    const [afterRun] = await tx.query<{ entries: number; scans: number }>(read);
    assert.equal(afterRun.scans, before.scans, 'sequential scans of click_rollups during the run');
    assert.ok(afterRun.entries - before.entries < 20, `the run read ${afterRun.entries - before.entries} entries of the rollups' key for one click`);
  });
  const rolled = await api.services.db.query<{ dimension: string; clicks: number }>(
    `select dimension, clicks from click_rollups where link_id = $1 and dimension = 'referrer' and day = current_date`, [link.id],
  );
  assert.deepEqual(rolled.map((r) => ({ ...r, clicks: Number(r.clicks) })), [{ dimension: 'referrer', clicks: 1 }]);
});

test('a run is never compiled with JIT', async () => {
  // Past the planner's cost threshold PostgreSQL compiles the run's statement with LLVM at every
  // run, a large share of its CPU for a statement that runs once.
  const { link } = await smartLink();
  await visit(link.slug, FIREFOX);
  await api.services.clicks.flush();
  await api.services.db.transaction(async (tx) => {
    const { from, to } = await aggregateClicks(tx);
    assert.ok(to > from, 'the run had clicks to roll up');
    const [{ jit }] = await tx.query<{ jit: string }>('show jit');
    assert.equal(jit, 'off', "JIT within the run's transaction");
  });
});

test('a run counts on the links the clicks it rolls up; counters an earlier version left behind catch up, each click once', async () => {
  const { token, workspaceId, link } = await smartLink();
  await rollUp();
  const clicks = async () => {
    const res = await api.request('GET', `/v1/workspaces/${workspaceId}/links/${link.id}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.clicks as number;
  };
  for (const ua of [CHROME, FIREFOX]) await visit(link.slug, ua);
  await api.services.clicks.flush();
  await rollUp();
  assert.equal(await clicks(), 2, 'counted in the run that rolled them up');
  // A server of an earlier version let the counters wait under load: its last run moved the
  // rollups' watermark and left `counted_id` behind (the fence trigger lets `runs` move with it).
  await visit(link.slug, EDGE);
  await api.services.clicks.flush();
  const [{ last }] = await api.services.db.query<{ last: number }>('select last_id::int as last from click_watermark');
  await rollUp();
  await api.services.db.query('update click_watermark set counted_id = $1', [last]);
  await api.services.db.query(`update link_counters set clicks = clicks - 1 where link_id = $1`, [link.id]);
  assert.equal(await clicks(), 2, 'the third click waits for the counters');
  assert.equal((await linkAnalytics(token, workspaceId, link.id)).totalClicks, 3, 'analytics have it');
  await rollUp();
  assert.equal(await clicks(), 3, 'the next run counts it');
  await rollUp();
  assert.equal(await clicks(), 3, 'none counted twice');
  const [w] = await api.services.db.query<{ same: boolean }>('select counted_id = last_id as same from click_watermark');
  assert.ok(w.same, 'the counters caught up with the watermark');
});

test('the job rolls up once MIN_CLICKS wait and counts them in the same run; counters left behind catch up after ten flush intervals', async () => {
  const db = api.services.db;
  await rollUp();
  const job = clickAggregationJob({ flushMs: 1000, waitForClicks: true });
  const state = async () => (await db.query<{ last_id: number; counted_id: number }>(
    'select last_id::int as last_id, counted_id::int as counted_id from click_watermark'))[0];
  // Ids handed out with no clicks behind them (a gap, as a rolled-back append leaves): one short of
  // a run under load is left waiting; with one more, the job rolls them up.
  await db.query(`update click_watermark set counted_at = now(), rolled_at = now()`);
  const before = await state();
  await db.query(`select setval(pg_get_serial_sequence('clicks', 'id'), (select last_id from click_watermark) + $1)`, [MIN_CLICKS - 1]);
  await db.transaction((tx) => job.run(tx));
  assert.deepEqual(await state(), before, 'too few clicks wait: no run yet');
  await db.query(`select nextval(pg_get_serial_sequence('clicks', 'id'))`);
  await db.transaction((tx) => job.run(tx));
  const loaded = await state();
  assert.equal(loaded.last_id, before.last_id + MIN_CLICKS, 'rolled up');
  assert.equal(loaded.counted_id, loaded.last_id, 'and counted in the same run');
  // Counters an earlier version left behind: nothing is due until they are ten flush intervals old.
  await db.query(`update click_watermark set counted_id = $1, counted_at = now()`, [before.last_id]);
  await db.transaction((tx) => job.run(tx));
  assert.equal((await state()).counted_id, before.last_id, 'nothing due a moment later');
  await db.query(`update click_watermark set counted_at = now() - interval '11 seconds'`);
  await db.transaction((tx) => job.run(tx));
  const caught = await state();
  assert.equal(caught.counted_id, caught.last_id, 'counted once ten flush intervals passed');
});

test('after a quiet spell the first clicks wait ten flush intervals from when the job first saw them, not from the last run', async () => {
  const db = api.services.db;
  await rollUp();
  let now = 0;
  const job = clickAggregationJob({ flushMs: 1000, waitForClicks: true, now: () => now });
  const lastId = async () => (await db.query<{ last_id: number }>('select last_id::int as last_id from click_watermark'))[0].last_id;
  // The last run was long ago: under the old rule the first second of traffic was due at once.
  await db.query(`update click_watermark set rolled_at = now() - interval '1 hour', counted_at = now() - interval '1 hour'`);
  const before = await lastId();
  await db.query(`select setval(pg_get_serial_sequence('clicks', 'id'), (select last_id from click_watermark) + 5)`);
  await db.transaction((tx) => job.run(tx));
  assert.equal(await lastId(), before, 'first seen: nothing due yet');
  now += 9_000;
  await db.transaction((tx) => job.run(tx));
  assert.equal(await lastId(), before, 'nine intervals later: still waiting');
  now += 1_000;
  await db.transaction((tx) => job.run(tx));
  assert.equal(await lastId(), before + 5, 'ten intervals after they were first seen: rolled up');
  // Clicks behind a watermark another run moved wait afresh.
  await db.query(`select setval(pg_get_serial_sequence('clicks', 'id'), (select last_id from click_watermark) + 3)`);
  now += 60_000;
  await db.transaction((tx) => job.run(tx));
  assert.equal(await lastId(), before + 5, 'new clicks behind a moved watermark: first seen now');
  now += 10_000;
  await db.transaction((tx) => job.run(tx));
  assert.equal(await lastId(), before + 8, 'and rolled up ten intervals later');
});

test('a run of a server from before the counters had their own watermark is refused', async () => {
  await assert.rejects(
    api.services.db.query('update click_watermark set last_id = last_id + 1, rolled_at = now()'),
    /before migration 043/,
  );
});

test('a browser name or referrer a visitor made too long to index is cut or dropped, and runs go on', async () => {
  const { token, workspaceId, link } = await smartLink();
  // Bowser names an unknown agent after its first word, however long.
  await visit(link.slug, `${'A'.repeat(4000)}/1.0 `, undefined, `https://${'a'.repeat(3000)}.example/`);
  await api.services.clicks.flush();
  await rollUp();
  const data = await linkAnalytics(token, workspaceId, link.id);
  assert.equal(data.totalClicks, 1);
  assert.deepEqual(data.browsers, [{ key: 'A'.repeat(64), clicks: 1, uniqueClicks: 1 }]);
  assert.deepEqual(data.referrers, [{ key: null, clicks: 1, uniqueClicks: 1 }]);
});

test('hop_click_rollup_pending counts the clicks waiting for the job, and reads 0 once they are rolled up', async () => {
  const pending = async () => {
    const res = await api.request('GET', '/metrics', { token: METRICS_TOKEN });
    assert.equal(res.status, 200);
    const line = String(res.body).split('\n').find((l) => l.startsWith('hop_click_rollup_pending '));
    assert.ok(line, 'the gauge is exposed');
    return Number(line.split(' ')[1]);
  };
  await rollUp();
  const { link } = await smartLink();
  await visit(link.slug, FIREFOX);
  await visit(link.slug, CHROME);
  await api.services.clicks.flush();
  assert.equal(await pending(), 2);
  await rollUp();
  assert.equal(await pending(), 0);
  const res = await api.request('GET', '/metrics', { token: METRICS_TOKEN });
  assert.ok(String(res.body).split('\n').includes('hop_click_counters_pending 0'), 'every rolled-up click counted');
});

test('a visitor\'s unique click is its earliest, also when the log holds its clicks out of time order, and only new visitors count one', async () => {
  const { token, workspaceId, link } = await smartLink();
  await rollUp();
  // A replayed spool or a second process can append a later click before an earlier one: the
  // unique is the earliest by time, whatever the ids say. Written to the log as a batch would, at
  // fractions of the part of today (UTC) gone by, so that every click falls on the same day.
  const DAY = 86_400_000;
  if (Date.now() % DAY < 1_000) await new Promise((r) => setTimeout(r, 1_000));
  const now = Date.now();
  const dayStart = now - (now % DAY);
  const append = (visitor: string, referrer: string, dayPart: number) => api.services.db.query(
    `insert into clicks (link_id, workspace_id, source, clicked_at, visitor_hash, referrer, is_bot, target)
     values ($1, $2, 'link', $3, $4, $5, false, 'default')`,
    [link.id, workspaceId, new Date(dayStart + Math.floor((now - dayStart) * dayPart)), visitor, referrer],
  );
  await append('visitor-a', 'late.example', 0.9);
  await append('visitor-a', 'early.example', 0.1);
  await append('visitor-b', 'late.example', 0.8);
  const expected = [
    { key: 'late.example', clicks: 2, uniqueClicks: 1 },
    { key: 'early.example', clicks: 1, uniqueClicks: 1 },
  ];
  assert.deepEqual((await linkAnalytics(token, workspaceId, link.id)).referrers, expected, 'pending');
  await rollUp();
  assert.deepEqual((await linkAnalytics(token, workspaceId, link.id)).referrers, expected, 'rolled up');
  // A visitor the day already knows counts no unique again, pending or rolled up.
  await append('visitor-a', 'again.example', 0.95);
  // Keys with as many clicks come in key order.
  const again = [expected[0], { key: 'again.example', clicks: 1, uniqueClicks: 0 }, expected[1]];
  assert.deepEqual((await linkAnalytics(token, workspaceId, link.id)).referrers, again, 'pending, known visitor');
  await rollUp();
  const data = await linkAnalytics(token, workspaceId, link.id);
  assert.deepEqual(data.referrers, again, 'rolled up, known visitor');
  assert.equal(data.uniqueClicks, 2);
});

test('the hourly click-partitions job gathers the statistics analytics are planned with, on the log and the rollups', async () => {
  const { db } = api.services;
  await db.transaction((tx) => clickPartitionsJob(api.clock, api.services.plans).run(tx));
  // reltuples is -1 until a table's first ANALYZE (or VACUUM); the embedded database runs neither
  // on its own. Without the rollups' statistics, a link's analytics read every rollup row of its
  // workspace's range.
  const rows = await db.query<{ relname: string; reltuples: number }>(
    `select relname, reltuples from pg_class where relname in ('clicks', 'click_rollups') order by relname`,
  );
  assert.deepEqual(rows.map((r) => [r.relname, Number(r.reltuples) >= 0]), [['click_rollups', true], ['clicks', true]]);
});

test("a run that fails while it holds the click log's gate leaves the gate free: no click writer waits for it", async () => {
  const { db } = api.services;
  const gateLocks = async () => Number((await db.query<{ n: number }>(
    `select count(*) as n from pg_locks where locktype = 'advisory' and objid = $1`, [CLICK_LOG_GATE]))[0].n);
  // The bound is read while the gate is held; here that read fails in the database, which aborts
  // the transaction, so no statement after it (an unlock) can run.
  await assert.rejects(db.transaction((tx) => aggregateClicks({
    query: <T>(text: string, params?: unknown[]) => tx.query<T>(text.includes('pg_sequence_last_value') ? 'select 1 / 0' : text, params),
    exec: (script) => tx.exec(script),
    copyIn: (table, columns, rows, format) => tx.copyIn(table, columns, rows, format),
  })), /division by zero/);
  assert.equal(await gateLocks(), 0, 'the gate is not held once the failed run is over');
  // A writer takes the gate (shared) and appends, and the next run rolls its click up.
  const { token, workspaceId, link } = await smartLink();
  await visit(link.slug, CHROME);
  await api.services.clicks.flush();
  const { from, to } = await rollUp();
  assert.ok(to > from, 'the next run rolled up the new click');
  assert.equal((await linkAnalytics(token, workspaceId, link.id)).totalClicks, 1);
});
