import type { Queryable } from '../../db/database.js';
import { CLICK_LOG_GATE } from './click-log.js';
import { DERIVED_KEYS, agentKeySql } from './rollup-shape.js';

// A fallback key (DERIVED_KEYS) gets no row of its own (an agent row may hold one as a part): it is
// derived from the total.
const STORED_KEYS = `(d.dimension, d.key) not in (${Object.entries(DERIVED_KEYS)
  .map(([dimension, key]) => `('${dimension}', '${key}')`).join(', ')})`;

/**
 * At most this many click ids per run: a catch-up after an outage commits in steps. Above the job's
 * MIN_CLICKS and the clicks of the interval it waits for: under load a run takes all that waits.
 */
const MAX_IDS_PER_RUN = 250_000;

/**
 * The highest click id whose every predecessor is committed or gone: taken while holding the
 * click log's gate, which each writer holds (shared) for its whole transaction.
 *
 * The gate is held for an instant only: taken in a savepoint and let go by rolling back to it,
 * which releases what the savepoint locked. A session-level lock would do the same, but it
 * outlives a transaction that fails before its unlock, on a session the pool hands to the next
 * transaction, and every click writer of the fleet would then wait for it forever.
 */
export async function committedBound(tx: Queryable): Promise<number> {
  await tx.query('savepoint click_log_gate');
  await tx.query('select pg_advisory_xact_lock($1)', [CLICK_LOG_GATE]);
  const [{ bound }] = await tx.query<{ bound: number | null }>(
    `select pg_sequence_last_value(pg_get_serial_sequence('clicks', 'id')::regclass) as bound`,
  );
  await tx.query('rollback to savepoint click_log_gate');
  await tx.query('release savepoint click_log_gate');
  return Number(bound ?? 0);
}

/**
 * About how many clicks wait to be rolled up (ids handed out past the watermark: a rolled-back
 * batch leaves a gap, so at most an over-estimate), the watermark itself, and how long ago the last
 * run moved it; and how many rolled-up clicks the link counters have yet to add, and since when.
 * Cheap: it waits for no writer.
 */
export async function pendingClicks(tx: Queryable): Promise<{ clicks: number; lastId: number; sinceRunMs: number; uncounted: number; sinceCountMs: number }> {
  const [r] = await tx.query<{ clicks: number | null; last_id: number; since_ms: number; uncounted: number; since_count_ms: number }>(
    `select pg_sequence_last_value(pg_get_serial_sequence('clicks', 'id')::regclass) - last_id as clicks, last_id,
       extract(epoch from clock_timestamp() - rolled_at) * 1000 as since_ms,
       last_id - counted_id as uncounted, extract(epoch from clock_timestamp() - counted_at) * 1000 as since_count_ms
     from click_watermark`,
  );
  return {
    clicks: Math.max(0, Number(r.clicks ?? 0)), lastId: Number(r.last_id), sinceRunMs: Number(r.since_ms),
    uncounted: Number(r.uncounted), sinceCountMs: Number(r.since_count_ms),
  };
}

/**
 * Rolls up the clicks appended since the watermark, in the caller's transaction: the day's new
 * visitors and the daily rollups (rollup-shape.ts: a row per combination of device, browser and
 * OS, and per key of country, referrer and target less the keys the total implies) and the links'
 * counters up to the end of the range (from their own watermark, which a server of an earlier
 * version could leave behind the rollups' when it let them wait); then both watermarks move in
 * one update. Output and watermarks commit together, so a run that dies
 * changes nothing and the next one does the same range again: no click counts twice, none is
 * skipped. Bots are in the log but count nowhere; clicks of links deleted since are skipped.
 */
export async function aggregateClicks(tx: Queryable, maxIds = MAX_IDS_PER_RUN): Promise<{ from: number; to: number; more: boolean }> {
  // The job's advisory lock keeps runs apart; the watermark row is locked only by the final update.
  const [w] = await tx.query<{ last_id: number; counted_id: number }>('select last_id, counted_id from click_watermark');
  const from = Number(w.last_id);
  const bound = await committedBound(tx);
  const to = Math.max(from, Math.min(bound, from + maxIds));
  const more = to < bound;
  // The run's commit need not wait for its WAL to reach the disk: everything it writes is computed
  // from clicks already committed (synchronously), and its watermarks are in the same WAL record
  // stream as its output. A crash that loses the commit loses both together, and the next run
  // does the same range again. A run of the largest range hashes in memory, not on disk.
  // A range is read through the log's BRIN index on id, never by scanning the log: the planner
  // picks a scan of the whole month's partition whenever its statistics are missing or old (a new
  // partition, the embedded database between two ANALYZEs), and that scan grows with the month
  // while the range stays a few seconds long, so a run's cost follows the range, not the month.
  // No JIT: the run's statement costs past the planner's threshold, and PostgreSQL compiled it with
  // LLVM at every run, a compilation that costs more than the few thousand evaluations it speeds up.
  // No merge joins: the planner sorted every click of the range to match it with the few new
  // visitors (a hash join skips the clicks when there are none), and a merge join could read the
  // whole rollups table in key order to merge a run's rows, where probes find each.
  await tx.query(RUN_SETTINGS_SQL);
  const countedFrom = Number(w.counted_id);
  const countNow = to > countedFrom;
  // Counters left behind the rollups catch up on their own; the range's own clicks are counted by
  // the roll-up's statement, from its one read of the range.
  if (countNow && countedFrom < from) await countClicks(tx, countedFrom, Math.min(from, to));
  if (to > from) await rollUp(tx, from, to);
  if (to === from && !countNow) return { from, to, more };
  // Both watermarks move in the run's last statement (a fleet's other runs wait for the job's lock,
  // not for this row), with `runs`, which migration 043's fence requires of every run.
  await tx.query(
    `update click_watermark set last_id = $1, rolled_at = case when $1 > last_id then now() else rolled_at end,
       counted_id = $2, counted_at = case when $2 > counted_id then now() else counted_at end, runs = runs + 1`,
    [to, countNow ? to : countedFrom],
  );
  // The pages just appended get their BRIN summary now rather than at the next vacuum (which the
  // embedded database never runs): analytics find the clicks after the watermark through that
  // index, and read every page of a range left unsummarized.
  if (to > from) {
    await tx.query(`select brin_summarize_new_values(t.relid) from pg_partition_tree('clicks_id_brin') t where t.isleaf`);
  }
  return { from, to, more };
}

/** The run's settings, for its transaction only (why each: aggregateClicks). */
export const RUN_SETTINGS_SQL = `select set_config('synchronous_commit', 'off', true), set_config('work_mem', '64MB', true),
  set_config('enable_seqscan', 'off', true), set_config('enable_mergejoin', 'off', true), set_config('jit', 'off', true)`;

/**
 * The day's new visitors, the rollups and the links' counters of the clicks in ($1, $2]: the run's
 * one statement (exported for bench/click-db-cost.mjs, which counts its instructions).
 */
export const ROLL_UP_SQL = `with v as (
       select c.id, c.link_id, c.workspace_id, c.clicked_at, c.visitor_hash, c.country, c.device, c.browser, c.os,
         c.referrer, c.target, c.counted, (c.clicked_at at time zone 'UTC')::date as day
       from clicks c
       where c.id > $1 and c.id <= $2 and not c.is_bot and exists (select 1 from links l where l.id = c.link_id)
     ),
     -- The links' counters, a row per link (docs/adr/, "Counters count at every run"), from this
     -- one read of the range: a statement of their own read every click of it again. Clicks the
     -- redirect counted already (links with a click limit) are left out.
     counts as (
       insert into link_counters (link_id, clicks)
       select v.link_id, count(*) from v where not v.counted group by v.link_id
       on conflict (link_id) do update set clicks = link_counters.clicks + excluded.clicks
     ),
     -- A unique click is a visitor's first on a link in a UTC day.
     fresh as (
       insert into daily_visitors (link_id, day, visitor_hash)
       select distinct link_id, day, visitor_hash from v
       on conflict do nothing
       returning link_id, day, visitor_hash
     ),
     -- Its first click: sorted for new visitors only. Most clicks are of visitors the day already
     -- knew, and sorting every click to find first visits would sort mostly for nothing.
     -- (The day's visitors compare link ids and hashes bytewise, migration 044: the log's columns
     -- are compared the same way.)
     firsts as (
       select distinct on (v.link_id collate "C", v.day, v.visitor_hash collate "C") v.id
       from v join fresh f on f.link_id = v.link_id collate "C" and f.day = v.day and f.visitor_hash = v.visitor_hash collate "C"
       order by v.link_id collate "C", v.day, v.visitor_hash collate "C", v.clicked_at, v.id
     ),
     -- Each click once with the key of every dimension; the rollups then come from one pass of
     -- grouping sets (a hash table per dimension). Not a lateral VALUES list of the four keys,
     -- which builds its expressions again for every click.
     humans as (
       select v.link_id, v.workspace_id, v.day, v.id in (select id from firsts) as is_unique,
         ${agentKeySql('v')} as agent, coalesce(v.country, '') as country, coalesce(v.referrer, '') as referrer, v.target
       from v
     ),
     -- The rollups are merged in, not upserted: MERGE finds each row through the primary key and
     -- updates it in place, where INSERT ... ON CONFLICT first tries an insertion, then locks the
     -- row it collided with (a WAL record of its own) before updating it: fewer instructions and
     -- less WAL for each row. MERGE can insert a key another
     -- transaction inserted meanwhile (a unique violation where ON CONFLICT would add to it), but
     -- only this job writes these keys and the job's lock keeps its runs apart; a run that fails
     -- changes nothing and the next does the range again.
     d as (
       select h.link_id, min(h.workspace_id) as workspace_id, h.day,
         case when grouping(h.agent) = 0 then 'agent' when grouping(h.country) = 0 then 'country'
           when grouping(h.referrer) = 0 then 'referrer' else 'target' end as dimension,
         -- The one key of the row's grouping set: the others are null there, and none is null in its own.
         coalesce(h.agent, h.country, h.referrer, h.target) as key,
         count(*) as clicks, count(*) filter (where h.is_unique) as uniques
       from humans h
       group by grouping sets ((h.link_id, h.day, h.agent), (h.link_id, h.day, h.country),
         (h.link_id, h.day, h.referrer), (h.link_id, h.day, h.target))
     )
     merge into click_rollups r
     using (select * from d where ${STORED_KEYS}) s
     on r.link_id = s.link_id collate "C" and r.day = s.day and r.dimension = s.dimension collate "C" and r.key = s.key collate "C"
     when matched then update set clicks = r.clicks + s.clicks, uniques = r.uniques + s.uniques
     when not matched then insert (link_id, workspace_id, day, dimension, key, clicks, uniques)
       values (s.link_id, s.workspace_id, s.day, s.dimension, s.key, s.clicks, s.uniques)`;

/** The day's new visitors, the rollups and the links' counters of the clicks in (from, to]. */
async function rollUp(tx: Queryable, from: number, to: number): Promise<void> {
  await tx.query(ROLL_UP_SQL, [from, to]);
}

/**
 * Adds the clicks in (from, to] to their links' counters, a row per link, for counters left behind
 * the rollups (the roll-up's statement counts its own range). Clicks of links deleted since are
 * skipped; links with a click limit were counted by the redirect itself.
 */
async function countClicks(tx: Queryable, from: number, to: number): Promise<void> {
  await tx.query(
    `insert into link_counters (link_id, clicks)
     select n.link_id, n.clicks from (
       select c.link_id, count(*) as clicks from clicks c
       where c.id > $1 and c.id <= $2 and not c.is_bot and not c.counted
       group by c.link_id
     ) n where exists (select 1 from links l where l.id = n.link_id)
     on conflict (link_id) do update set clicks = link_counters.clicks + excluded.clicks`,
    [from, to],
  );
}
