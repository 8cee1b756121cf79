import type { Queryable } from '../../db/database.js';
import { CLICK_LOG_GATE } from './click-log.js';
import { DERIVED_KEYS, agentKeySql } from './rollup-shape.js';

// A fallback key (DERIVED_KEYS) is derived from the total, never stored.
const STORED_KEYS = `(d.dimension, d.key) not in (${Object.entries(DERIVED_KEYS)
  .map(([dimension, key]) => `('${dimension}', '${key}')`).join(', ')})`;

/** At most this many click ids per run: a catch-up after an outage commits in steps. */
const MAX_IDS_PER_RUN = 100_000;

/**
 * The highest click id whose every predecessor is committed or gone: taken while holding the
 * click log's gate, which each writer holds (shared) for its whole transaction.
 */
async function committedBound(tx: Queryable): Promise<number> {
  await tx.query('select pg_advisory_lock($1)', [CLICK_LOG_GATE]);
  try {
    const [{ bound }] = await tx.query<{ bound: number | null }>(
      `select pg_sequence_last_value(pg_get_serial_sequence('clicks', 'id')::regclass) as bound`,
    );
    return Number(bound ?? 0);
  } finally {
    await tx.query('select pg_advisory_unlock($1)', [CLICK_LOG_GATE]);
  }
}

/**
 * About how many clicks wait to be rolled up (ids handed out past the watermark: a rolled-back
 * batch leaves a gap, so at most an over-estimate) and how long ago the last run moved the
 * watermark. Cheap: it waits for no writer.
 */
export async function pendingClicks(tx: Queryable): Promise<{ clicks: number; sinceRunMs: number }> {
  const [r] = await tx.query<{ clicks: number | null; since_ms: number }>(
    `select pg_sequence_last_value(pg_get_serial_sequence('clicks', 'id')::regclass) - last_id as clicks,
       extract(epoch from clock_timestamp() - rolled_at) * 1000 as since_ms
     from click_watermark`,
  );
  return { clicks: Math.max(0, Number(r.clicks ?? 0)), sinceRunMs: Number(r.since_ms) };
}

/**
 * Rolls up the clicks appended since the watermark, in the caller's transaction: the day's new
 * visitors, the daily rollups (rollup-shape.ts: a row per combination of device, browser and OS,
 * and per key of country, referrer and target less the keys the total implies) and the links'
 * counters, then the watermark moves to the end of the range. Output and watermark commit
 * together, so a run that dies changes nothing and the next one does the same range again: no
 * click counts twice, none is skipped.
 * Bots are in the log but count nowhere; clicks of links deleted since are skipped.
 */
export async function aggregateClicks(tx: Queryable): Promise<{ from: number; to: number }> {
  // The job's advisory lock keeps runs apart; the watermark row is locked only by the final update.
  const [{ last_id: from }] = await tx.query<{ last_id: number }>('select last_id from click_watermark');
  const to = Math.min(await committedBound(tx), Number(from) + MAX_IDS_PER_RUN);
  if (to <= Number(from)) return { from: Number(from), to: Number(from) };
  // The run's commit need not wait for its WAL to reach the disk: everything it writes is computed
  // from clicks already committed (synchronously), and its watermark is in the same WAL record
  // stream as its output. A crash that loses the commit loses both together, and the next run
  // rolls up the same range again. A run of the largest range hashes in memory, not on disk.
  // The range is read through the log's BRIN index on id, never by scanning the log: the planner
  // picks a scan of the whole month's partition whenever its statistics are missing or old (a new
  // partition, the embedded database between two ANALYZEs), and that scan grows with the month
  // while the range stays a few seconds long (31 ms a run at 420,000 clicks, docs/performance.md).
  await tx.query(`select set_config('synchronous_commit', 'off', true), set_config('work_mem', '64MB', true),
    set_config('enable_seqscan', 'off', true)`);
  await tx.query(
    `with v as (
       select c.*, (c.clicked_at at time zone 'UTC')::date as day
       from clicks c
       where c.id > $1 and c.id <= $2 and not c.is_bot and exists (select 1 from links l where l.id = c.link_id)
     ),
     -- A unique click is a visitor's first on a link in a UTC day.
     fresh as (
       insert into daily_visitors (link_id, day, visitor_hash)
       select distinct link_id, day, visitor_hash from v
       on conflict do nothing
       returning link_id, day, visitor_hash
     ),
     humans as (
       select v.*, f.visitor_hash is not null
           and row_number() over (partition by v.link_id, v.day, v.visitor_hash order by v.clicked_at, v.id) = 1 as is_unique
       from v left join fresh f using (link_id, day, visitor_hash)
     ),
     rolled as (
       insert into click_rollups (link_id, workspace_id, day, dimension, key, clicks, uniques)
       select h.link_id, min(h.workspace_id), h.day, d.dimension, d.key, count(*), count(*) filter (where h.is_unique)
       from humans h cross join lateral (values ('agent', ${agentKeySql('h')}), ('country', coalesce(h.country, '')),
         ('referrer', coalesce(h.referrer, '')), ('target', h.target)) as d(dimension, key)
       where ${STORED_KEYS}
       group by h.link_id, h.day, d.dimension, d.key
       on conflict (link_id, day, dimension, key) do update
         set clicks = click_rollups.clicks + excluded.clicks, uniques = click_rollups.uniques + excluded.uniques
     )
     -- Links with a click limit were counted by the redirect itself.
     insert into link_counters (link_id, clicks)
     select link_id, count(*) from humans where not counted group by link_id
     on conflict (link_id) do update set clicks = link_counters.clicks + excluded.clicks`,
    [from, to],
  );
  await tx.query('update click_watermark set last_id = $1, rolled_at = now()', [to]);
  // The pages just appended get their BRIN summary now rather than at the next vacuum (which the
  // embedded database never runs): analytics find the clicks after the watermark through that
  // index, and read every page of a range left unsummarized.
  await tx.query(`select brin_summarize_new_values(i.inhrelid) from pg_inherits i where i.inhparent = 'clicks_id_brin'::regclass`);
  return { from: Number(from), to };
}
