#!/usr/bin/env node
// PostgreSQL CPU per click, independent of load: replays N visits into a fresh database the way a
// server does (a batch appended with one COPY, then an aggregation run, in turn) and reads the CPU
// time of this database's backends from /proc. No HTTP and no load generator, so the figure does
// not move with what else the machine runs; PostgreSQL's shared processes (WAL writer,
// checkpointer) serve every database on the machine and are reported apart, as a rough figure.
// Usage: node bench/click-db-cost.mjs [clicks=200000] [batch=5000] [warm=clicks]   (needs a built server)
// With valgrind installed, the aggregation run's statement is also counted in instructions
// (bench/lib/callgrind-postgres.mjs), a figure that does not move with the machine's load.
// `warm` visits are replayed first, unmeasured: a link's rollup rows for the day then exist, as
// they do for a link visited all day, and the measure is of the steady state.
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { freshPostgres, pick } from './lib/servers.mjs';
import { fmt, writeSection } from './lib/measure.mjs';
import { cpuMsOf } from './lib/cpu.mjs';
import { callgrindMissing, instructionsOf } from './lib/callgrind-postgres.mjs';

const CLICKS = Number(process.argv[2] ?? 200_000);
const BATCH = Number(process.argv[3] ?? 5_000);
const WARM = Number(process.argv[4] ?? CLICKS);
/** Batches appended between two aggregation runs. */
const EVERY = Number(process.argv[5] ?? 1);
const LINKS = 10_000;
/** The click log's columns in the order copyRows writes them (click-log.ts). */
const CLICK_COLUMNS = ['link_id', 'workspace_id', 'qr_id', 'source', 'clicked_at', 'visitor_hash', 'country', 'city', 'device',
  'browser', 'os', 'referrer', 'is_bot', 'counted', 'target'];
// HOP_BENCH_SHAPE=redirect: the visits of bench/redirect.mjs (one address, so one visitor per user
// agent, and no country); else 50,000 visitors from seven countries.
const LIKE_REDIRECT = process.env.HOP_BENCH_SHAPE === 'redirect';
const VISITORS = LIKE_REDIRECT ? 6 : 50_000;

// HOP_BENCH_SERVER=<dir of another checkout's server>: measures that build instead (a before/after).
const dist = process.env.HOP_BENCH_SERVER ? new URL(`file://${process.env.HOP_BENCH_SERVER.replace(/\/?$/, '/')}dist/`) : new URL('../server/dist/', import.meta.url);
const { openDatabase } = await import(new URL('db/open.js', dist));
const { migrate } = await import(new URL('db/migrate.js', dist));
const { appendClicks, copyRows } = await import(new URL('domain/clicks/click-log.js', dist));
const { clickAggregationJob, MIN_CLICKS } = await import(new URL('jobs/click-aggregation-job.js', dist));
const { aggregateClicks } = await import(new URL('domain/clicks/click-aggregation.js', dist));
const { runExclusive } = await import(new URL('jobs/schedule.js', dist));
const { ROLL_UP_SQL, RUN_SETTINGS_SQL } = await import(new URL('domain/clicks/click-aggregation.js', dist));

/** PostgreSQL processes: this database's backends, and the shared ones (no client address). */
function pgPids(database) {
  const mine = [];
  const shared = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!/ \d+\.\d+\.\d+\.\d+\(\d+\)| \[local\]/.test(title)) shared.push(pid);
      else if (title.includes(` ${database} `)) mine.push(pid);
    } catch {
      // gone
    }
  }
  return { mine, shared };
}
const sum = (pids) => pids.reduce((s, p) => s + cpuMsOf(p), 0);

const pg = freshPostgres();
const db = await openDatabase({ databaseUrl: pg.url, dataDir: '' });
try {
  await migrate(db);
  await db.query(`insert into users (id, email, name, password_hash) values ('u1', 'bench@example.test', 'Bench', 'x')`);
  await db.query(`insert into workspaces (id, name, slug, plan) values ('w1', 'Bench', 'bench', 'business')`);
  await db.query(
    `insert into links (id, workspace_id, slug, domain, url, created_by)
     select 'l' || i, 'w1', 'b' || i, 'hop.test', 'https://example.com/page/' || i, 'u1' from generate_series(1, $1) i`,
    [LINKS],
  );
  const AGENTS = [
    { device: 'desktop', browser: 'Chrome', os: 'Windows' }, { device: 'mobile', browser: 'Safari', os: 'iOS' },
    { device: 'desktop', browser: 'Safari', os: 'macOS' }, { device: 'desktop', browser: 'Firefox', os: 'Linux' },
    { device: 'mobile', browser: 'Chrome', os: 'Android' }, { device: 'desktop', browser: null, os: null, bot: true },
  ];
  const REFERRERS = ['google.com', 't.co', 'news.ycombinator.com', null, 'github.com'];
  const COUNTRIES = LIKE_REDIRECT ? [null] : ['US', 'DE', 'FR', 'GB', 'IN', 'BR', null];
  const visitors = Array.from({ length: VISITORS }, () => randomBytes(16).toString('base64url'));
  const visit = (at) => {
    const n = 1 + Math.floor(Math.random() * LINKS);
    const a = Math.floor(Math.random() * AGENTS.length);
    const agent = AGENTS[a];
    return {
      linkId: `l${n}`, slug: `b${n}`, domain: 'hop.test', destination: `https://example.com/page/${n}`, target: 'default',
      workspaceId: 'w1', qrId: null, source: 'link', at, visitorHash: LIKE_REDIRECT ? visitors[a] : pick(visitors), country: pick(COUNTRIES), city: null,
      isBot: !!agent.bot, counted: false, device: agent.device, browser: agent.browser, os: agent.os, referrer: pick(REFERRERS),
    };
  };
  // Rows each aggregation writes (inserted or updated), read in its own transaction: a count that
  // does not move with the machine's load, where CPU per click moves by ±15% from run to run.
  // PostgreSQL's "xact" counters hold what the backend has not yet reported, which can span several
  // transactions (PostgreSQL 15 reports at most once a second): only a difference taken before and
  // after the run, inside its transaction, is the run's own.
  const written = { rollups: 0, visitors: 0, counters: 0 };
  const ROWS_WRITTEN = `select
      pg_stat_get_xact_tuples_inserted('click_rollups'::regclass) + pg_stat_get_xact_tuples_updated('click_rollups'::regclass) as rollups,
      pg_stat_get_xact_tuples_inserted('daily_visitors'::regclass) as visitors,
      pg_stat_get_xact_tuples_inserted('link_counters'::regclass) + pg_stat_get_xact_tuples_updated('link_counters'::regclass) as counters`;
  let counting = false;
  const rowsWritten = async (tx) => (await tx.query(ROWS_WRITTEN))[0];
  const counted = async (tx, run) => {
    if (!counting) return run();
    const before = await rowsWritten(tx);
    const result = await run();
    const after = await rowsWritten(tx);
    for (const k of Object.keys(written)) written[k] += Number(after[k]) - Number(before[k]);
    return result;
  };
  const plainJob = clickAggregationJob();
  const job = { ...plainJob, run: (tx) => counted(tx, () => plainJob.run(tx)) };
  // Build every batch's COPY text first: only the database's work is measured.
  const batchesOf = async (n) => {
    const out = [];
    for (let i = 0; i < n; i += BATCH) {
      const at = new Date();
      out.push(await copyRows(Array.from({ length: Math.min(BATCH, n - i) }, () => visit(at))));
    }
    return out;
  };
  for (const rows of await batchesOf(WARM)) {
    await db.transaction((tx) => appendClicks(tx, rows));
    await runExclusive(db, job);
  }
  const batches = await batchesOf(CLICKS);
  // Warm the connections (and the catalog caches of their backends) outside the measure.
  await db.transaction(async (tx) => tx.query('select 1'));
  await db.transaction((tx) => aggregateClicks(tx));

  counting = true;
  const { mine, shared } = pgPids(pg.name);
  const start = { mine: sum(mine), shared: sum(shared) };
  const startLsn = (await db.query('select pg_current_wal_lsn()::text as l'))[0].l;
  let appendMs = 0;
  let aggregateMs = 0;
  for (const [i, rows] of batches.entries()) {
    const a = sum(mine);
    await db.transaction((tx) => appendClicks(tx, rows));
    const b = sum(mine);
    // The job decides whether enough clicks wait (as it does every flush interval in a server).
    if ((i + 1) % EVERY === 0) await runExclusive(db, job);
    appendMs += b - a;
    aggregateMs += sum(mine) - b;
  }
  // Whatever the job left waiting is rolled up, and counted.
  const c = sum(mine);
  await db.transaction((tx) => counted(tx, () => aggregateClicks(tx)));
  aggregateMs += sum(mine) - c;
  const end = { mine: sum(mine), shared: sum(shared) };
  const [{ wal }] = await db.query('select pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::bigint as wal', [startLsn]);
  const [{ behind }] = await db.query(`select count(*)::int as behind from clicks where id > (select last_id from click_watermark)`);
  if (behind !== 0) throw new Error(`${behind} clicks not rolled up`);
  const us = (ms) => (ms * 1000) / CLICKS;
  // The run's statement over the last RUN clicks again, counted in instructions (a host-independent
  // figure: CPU time here moves by ±15% between trials); its output is rolled back.
  const RUN = 20_000;
  const missing = !ROLL_UP_SQL ? 'this build does not export its statement' : callgrindMissing();
  let instructions = `(not counted: ${missing})`;
  let appendInstructions = instructions;
  if (!missing) {
    // HOP_BENCH_COUNT=append counts the append alone (the run's statement takes minutes under callgrind).
    if (process.env.HOP_BENCH_COUNT !== 'append') {
      const [{ last }] = await db.query('select last_id::text as last from click_watermark');
      const [count] = instructionsOf({
        database: pg.name, setup: RUN_SETTINGS_SQL,
        statements: [ROLL_UP_SQL.replaceAll('$1', String(Number(last) - RUN)).replaceAll('$2', last)],
      });
      instructions = `${fmt(count / RUN, 0)} instructions`;
    } else instructions = '(not counted: HOP_BENCH_COUNT=append)';
    // The append too: one batch of the build's own COPY rows (text or binary, as its copyRows
    // writes them) read from a file by the same COPY, rolled back. The copy's BRIN index was built
    // whole, each partition's last range summarized while still filling, where a click then
    // updates the summary (~3,900 instructions more); most of a server's clicks land in ranges
    // not yet summarized, so those summaries are cleared first (in the counted transaction: a few
    // thousand instructions in all).
    const rows = Buffer.concat(await batchesOf(BATCH));
    const binary = rows.subarray(0, 7).toString('latin1') === 'PGCOPY\n';
    const dir = mkdtempSync(join(tmpdir(), 'hop-copy-'));
    try {
      chmodSync(dir, 0o755);
      const file = join(dir, 'rows');
      writeFileSync(file, binary ? rows : rows.toString('utf8'), { mode: 0o644 });
      const [copied] = instructionsOf({
        database: pg.name,
        setup: `select brin_desummarize_range(t.relid, b.blocks - 1)
          from pg_partition_tree('clicks_id_brin') t join pg_index i on i.indexrelid = t.relid
          cross join lateral (select pg_relation_size(i.indrelid) / current_setting('block_size')::bigint as blocks) b
          where t.isleaf and b.blocks % 128 <> 0`,
        statements: [`copy clicks (${CLICK_COLUMNS.join(', ')}) from '${file}'${binary ? ' with (format binary)' : ''}`],
      });
      appendInstructions = `${fmt(copied / BATCH, 0)} instructions (${binary ? 'binary' : 'text'} format)`;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const lines = [
    `${CLICKS.toLocaleString()} clicks (after ${WARM.toLocaleString()} unmeasured) over ${LINKS.toLocaleString()} links replayed in batches of ${BATCH.toLocaleString()} (one COPY each; the aggregation job asked after every ${EVERY > 1 ? `${EVERY} batches` : 'batch'}, rolling up when ${MIN_CLICKS ? `${fmt(MIN_CLICKS)} clicks wait` : 'its threshold of clicks wait'}), ${LIKE_REDIRECT ? 'visits shaped as bench/redirect.mjs sends them (one visitor per user agent, no country)' : `${VISITORS.toLocaleString()} visitors from seven countries`}, one in six a bot. CPU time of this database's PostgreSQL backends from /proc; load average ${loadavg().map((n) => n.toFixed(1)).join(', ')}.`,
    '',
    '| | per click |',
    '|---|---|',
    `| append (COPY, commit) | ${fmt(us(appendMs), 2)} µs |`,
    `| aggregation | ${fmt(us(aggregateMs), 2)} µs |`,
    `| the append's COPY of ${fmt(BATCH)} clicks again (rolled back), counted by callgrind | ${appendInstructions} |`,
    `| the run's statement again over the last ${fmt(RUN)} clicks (their visitors known by then; rolled back), counted by callgrind: the same count whatever the machine's load | ${instructions} |`,
    `| **backends, total** | **${fmt(us(end.mine - start.mine), 2)} µs** |`,
    `| shared processes (WAL writer, checkpointer; every database on the machine) | ${fmt(us(end.shared - start.shared), 2)} µs |`,
    `| WAL written (machine-wide) | ${fmt(Number(wal) / CLICKS, 0)} bytes |`,
    `| rollup rows written (inserted or updated) | ${fmt(written.rollups / CLICKS, 2)} |`,
    `| new day-visitor rows | ${fmt(written.visitors / CLICKS, 2)} |`,
    `| link counter rows written | ${fmt(written.counters / CLICKS, 2)} |`,
  ].join('\n');
  console.log(lines);
  writeSection('Click database cost (PostgreSQL)', lines);
} finally {
  await db.close();
  // HOP_BENCH_KEEP=1 leaves the database for a look at its plans (drop it afterwards).
  if (process.env.HOP_BENCH_KEEP === '1') console.error(`kept database ${pg.name}`);
  else pg.drop();
}
