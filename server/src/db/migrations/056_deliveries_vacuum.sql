-- Deliveries are a queue: each row is inserted pending and updated as it is claimed and as its
-- attempts end. The outcome's update (status, next_attempt_at) leaves an entry in the partial
-- indexes of pending deliveries that the claim and the metrics' backlog count pass over until the
-- table is vacuumed. Autovacuum's default waits until a fifth of the table is dead: with 30 days of
-- history at click volume, hundreds of millions of rows. The table is vacuumed once 1% of it (and
-- at least 10,000 rows) changed, and analyzed as often, so those reads stay the size of the
-- backlog. The embedded database runs no autovacuum; the settings are kept for a later move to a
-- server.
alter table deliveries set (
  autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_vacuum_threshold = 10000,
  autovacuum_vacuum_insert_scale_factor = 0.01,
  autovacuum_analyze_scale_factor = 0.01
);
