#!/usr/bin/env node
// Analytics on a link with a million clicks (target: p99 under 100 ms, goal under 50 ms), against
// the same query on a link with ten clicks, measured alternately in the same run. The clicks are
// seeded with SQL into the click log, in the shape the click pipeline appends; all but the last
// PENDING are rolled up by the aggregation job's own code, and those stay after its watermark for
// the whole run (today's clicks not yet rolled up, as the query meets them after a lag or an
// outage), so the figure covers both halves of the query. Uniques are checked exact. The log is
// analysed after the load, as autovacuum (or, embedded, the click-partitions job) would.
// Usage: node bench/analytics.mjs [postgres|embedded] [clicks]   (default postgres, 1,000,000)
import { loadavg } from 'node:os';
import postgres from 'postgres';
import { ADMIN_TOKEN, freshPostgres, seedLinks, startHop } from './lib/servers.mjs';
import { MIN_CLICKS } from '../server/dist/jobs/click-aggregation-job.js';
import { fmt, load, writeSection } from './lib/measure.mjs';
import { startServer } from '../test/helpers/start-server.mjs';
import { scratchDir } from '../test/helpers/scratch-dir.mjs';

const mode = process.argv[2] ?? 'postgres';
const CLICKS = Number(process.argv[3] ?? 1_000_000);
// A few seconds of a busy link's clicks: the job runs every second, so that is what it has not
// rolled up yet at any time but after an outage (it then catches up 100,000 clicks a run).
const PENDING = Math.min(2_000, Math.floor(CLICKS / 10));
// The pending part is read through the log's id range, every click in it of the link's sixteenth
// of the log (migration 045), so what other links have waiting costs this link's analytics too.
// At the worst moment under a full redirect load: on PostgreSQL, the clicks the job waits for
// before a run (MIN_CLICKS) and one more flush interval's (~35,000 a second, the fastest
// bench/redirect.mjs has measured); on the embedded database, whose job runs every interval, that
// one interval's. They are spread over OTHER_LINKS links, interleaved, as the redirect load spreads
// them: all of one link's would sit in one sixteenth and flatter every other link.
const OTHERS_PENDING = (mode === 'embedded' ? 0 : MIN_CLICKS) + 35_000;
const OTHER_LINKS = 10_000;
// server/src/jobs/click-aggregation-job.ts and server/src/domain/clicks/click-log.ts.
const JOB_LOCK = 72_410_104;
const GATE = 72_410_301;

/**
 * Appends `n` clicks, `age` an interval expression for how old each is, of a link or, given an
 * array of link ids, of each in turn.
 */
const SEED_SQL = `insert into clicks (link_id, workspace_id, source, clicked_at, visitor_hash, country, device, browser, os, referrer, is_bot)
  select ($1::text[])[1 + g % cardinality($1::text[])], $2, 'link', now() - random() * $4::interval, 'v' || (random() * 50000)::int,
    (array['US','GB','DE','FR','IN','BR','JP'])[1 + (random() * 6)::int],
    (array['desktop','mobile','tablet'])[1 + (random() * 2)::int],
    (array['Chrome','Safari','Firefox','Edge'])[1 + (random() * 3)::int],
    (array['Windows','macOS','iOS','Android','Linux'])[1 + (random() * 4)::int],
    (array['google.com','t.co','github.com',null])[1 + (random() * 3)::int], false
  from generate_series(1, $3) g`;
/** Writers of the click log hold its gate (shared) while they append, as the pipeline does. */
const seed = (db, linkId, workspaceId, n, age) => db.transaction(async (tx) => {
  await tx.query('select pg_advisory_xact_lock_shared($1)', [GATE]);
  await tx.query(SEED_SQL, [[linkId].flat(), workspaceId, n, age]);
});
const rolledUp = async (db) =>
  (await db.query('select (select last_id from click_watermark) >= coalesce((select max(id) from clicks), 0) as done'))[0].done;

/** The uniques the API must report: one visitor per link per UTC day, from the raw log. */
const exactUniques = async (db, linkId) => Number((await db.query(
  `select count(*) as n from (select distinct (clicked_at at time zone 'UTC')::date, visitor_hash from clicks
   where link_id = $1 and not is_bot) x`, [linkId]))[0].n);

/**
 * PostgreSQL: the server's job rolls up the seeded clicks; then this process holds the job's lock,
 * as another process of the fleet mid-run would, while the pending clicks are added and measured.
 */
async function onPostgres() {
  const pg = freshPostgres();
  const hop = await startHop({ DATABASE_URL: pg.url });
  const sql = postgres(pg.url, { onnotice: () => {} });
  const db = {
    query: (text, params = []) => sql.unsafe(text, params),
    transaction: (fn) => sql.begin((tx) => fn({ query: (text, params = []) => tx.unsafe(text, params) })),
  };
  const jobSession = await sql.reserve();
  return {
    hop,
    async prepare(big, small, busy, workspaceId) {
      await seed(db, big, workspaceId, CLICKS - PENDING, '29 days');
      await seed(db, small, workspaceId, 10, '29 days');
      while (!(await rolledUp(db))) await new Promise((r) => setTimeout(r, 500));
      await jobSession`select pg_advisory_lock(${JOB_LOCK})`;
      await seed(db, big, workspaceId, PENDING, '1 minute');
      await seed(db, busy, workspaceId, OTHERS_PENDING, '1 minute');
      await db.query('analyze clicks');
      return exactUniques(db, big);
    },
    async end() {
      jobSession.release();
      await sql.end();
      await hop.stop();
      // HOP_BENCH_KEEP=1 leaves the database for a look at its plans (drop it afterwards).
      if (process.env.HOP_BENCH_KEEP === '1') console.error(`kept database ${pg.name}`);
      else pg.drop();
    },
  };
}

/**
 * Embedded: one process owns the data directory, so the links are made through a server, the
 * clicks seeded and rolled up (with the job's own code) with the server stopped, and the server
 * started again without its jobs, which leaves the pending clicks pending.
 */
async function onEmbedded() {
  const { openEmbedded } = await import('../server/dist/db/embedded.js');
  const { aggregateClicks } = await import('../server/dist/domain/clicks/click-aggregation.js');
  const dataDir = scratchDir('hop-bench-');
  const env = { HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_LOG_LEVEL: 'error', HOP_RATE_LIMITS: 'off' };
  let hop = await startServer({ dataDir, env, timeoutMs: 120_000 });
  return {
    get hop() {
      return hop;
    },
    async prepare(big, small, busy, workspaceId) {
      await hop.stop();
      const db = await openEmbedded(dataDir);
      await seed(db, big, workspaceId, CLICKS - PENDING, '29 days');
      await seed(db, small, workspaceId, 10, '29 days');
      while (!(await rolledUp(db))) await db.transaction((tx) => aggregateClicks(tx));
      await seed(db, big, workspaceId, PENDING, '1 minute');
      await seed(db, busy, workspaceId, OTHERS_PENDING, '1 minute');
      await db.query('analyze clicks');
      const uniques = await exactUniques(db, big);
      await db.close();
      hop = await startServer({ dataDir, env: { ...env, HOP_DISABLE: 'jobs' }, timeoutMs: 120_000 });
      return uniques;
    },
    async end() {
      await hop.stop();
    },
  };
}

const run = mode === 'embedded' ? await onEmbedded() : await onPostgres();
try {
  const { token, workspaceId, slugs } = await seedLinks(run.hop.url, 2 + OTHER_LINKS);
  const ids = new Map();
  for (let cursor = ''; ;) {
    const page = await (await fetch(`${run.hop.url}/v1/workspaces/${workspaceId}/links?limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
      headers: { authorization: `Bearer ${token}` },
    })).json();
    for (const l of page.data) ids.set(l.slug, l.id);
    if (!page.pagination.nextCursor) break;
    cursor = encodeURIComponent(page.pagination.nextCursor);
  }
  const [big, small, ...busy] = slugs.map((slug) => ids.get(slug));
  process.stderr.write(`seeding ${CLICKS.toLocaleString()} clicks on ${mode} (${PENDING.toLocaleString()} left pending, and ${OTHERS_PENDING.toLocaleString()} of ${OTHER_LINKS.toLocaleString()} other links)...\n`);
  const seededAt = performance.now();
  const uniques = await run.prepare(big, small, busy, workspaceId);
  process.stderr.write(`seeded and rolled up in ${fmt((performance.now() - seededAt) / 1000)} s\n`);

  const request = (linkId, connections = 10) => ({
    url: `${run.hop.url}/v1/workspaces/${workspaceId}/links/${linkId}/analytics?days=30`,
    headers: { authorization: `Bearer ${token}` },
    connections,
    duration: 6,
  });
  const check = await (await fetch(request(big).url, { headers: request(big).headers })).json();
  if (check.data.totalClicks !== CLICKS) throw new Error(`expected ${CLICKS} clicks, analytics says ${check.data.totalClicks}`);
  if (check.data.uniqueClicks !== uniques) throw new Error(`expected ${uniques} unique clicks, analytics says ${check.data.uniqueClicks}`);
  await load({ ...request(big), duration: 2 });
  // Ten connections at once (concurrent identical reads share a statement), and one at a time:
  // each request then runs the whole statement alone, its latency the statement's.
  const runs = { big: [], small: [], big1: [], small1: [] };
  for (let i = 0; i < 2; i++) {
    runs.small.push(await load(request(small)));
    runs.big.push(await load(request(big)));
    runs.small1.push(await load(request(small, 1)));
    runs.big1.push(await load(request(big, 1)));
  }
  const avg = (rs, k) => rs.reduce((s, r) => s + r[k], 0) / rs.length;
  const summary = (rs) => ({ p50: avg(rs, 'p50'), p99: avg(rs, 'p99'), rps: avg(rs, 'rps') });
  const [b, s, b1, s1] = [summary(runs.big), summary(runs.small), summary(runs.big1), summary(runs.small1)];
  const lines = [
    `${mode === 'embedded' ? 'Embedded database' : 'PostgreSQL'}. \`GET .../links/{id}/analytics?days=30\` (totals, daily series, six breakdowns), 10 connections (concurrent identical requests share one statement), then 1 connection (each request runs its statement alone); 2 alternating rounds of 6 s each. Of the ${CLICKS.toLocaleString()} clicks (29 days), ${PENDING.toLocaleString()} of the last minute are not rolled up yet (the aggregation job held off for the whole run): the query reads rollups and raw clicks alike. ${OTHERS_PENDING.toLocaleString()} clicks of ${OTHER_LINKS.toLocaleString()} other links wait too, interleaved, as many as wait at the worst moment under a full redirect load (the pending part is read by id range, every click in it of the link's sixteenth of the log). Unique visitors: ${fmt(check.data.uniqueClicks)}, equal to the distinct (UTC day, visitor) pairs in the raw log. Load average ${loadavg().map((n) => n.toFixed(1)).join(', ')} at the end.`,
    '',
    '| link | requests/s | p50 | p99 |',
    '|---|---|---|---|',
    `| 10 clicks (baseline), 10 connections | ${fmt(s.rps)} | ${fmt(s.p50)} ms | ${fmt(s.p99)} ms |`,
    `| ${CLICKS.toLocaleString()} clicks, 10 connections | ${fmt(b.rps)} | ${fmt(b.p50)} ms | ${fmt(b.p99)} ms |`,
    `| **ratio** | **${fmt(b.rps / s.rps, 2)}** | | **p99 ${fmt(b.p99, 0)} ms** (target < 100 ms, goal < 50 ms) |`,
    `| 10 clicks (baseline), 1 connection | ${fmt(s1.rps)} | ${fmt(s1.p50)} ms | ${fmt(s1.p99)} ms |`,
    `| ${CLICKS.toLocaleString()} clicks, 1 connection | ${fmt(b1.rps)} | ${fmt(b1.p50)} ms | ${fmt(b1.p99)} ms |`,
  ].join('\n');
  console.log(lines);
  writeSection(`Analytics on a link with a million clicks (${mode})`, lines);
  process.exitCode = b.p99 < 100 ? 0 : 1;
} finally {
  await run.end();
}
