-- The aggregation job probes the unique indexes of click_rollups and daily_visitors for every
-- rollup row and every day's visitor a run writes (ON CONFLICT), and each probe compared its text
-- keys under the database's collation: a strcoll per comparison, a ninth of a run's instructions
-- (callgrind, docs/performance.md). Link ids, visitor hashes, dimension names and rollup keys are
-- only ever compared for equality or grouped, never put in a reader's alphabetical order (analytics
-- already sort and group keys bytewise): their indexes compare bytes. A statement comparing one of
-- these columns with another table's says which collation it means (docs/adr/, "A run
-- counted in instructions"). No table is rewritten (only the collation changes); the two primary
-- keys are rebuilt.
alter table click_rollups
  alter column link_id type text collate "C",
  alter column dimension type text collate "C",
  alter column key type text collate "C";
alter table daily_visitors
  alter column link_id type text collate "C",
  alter column visitor_hash type text collate "C";
