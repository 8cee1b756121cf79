-- Which dispatcher process holds a delivery's lease: the second key of the session-level advisory
-- lock (class 72410201) that process holds for as long as it lives. A lease whose owner's lock is
-- gone from pg_locks (the process crashed, or its session ended) lapses at once, not at
-- locked_until: a server restarted after a crash sends the attempts it had in flight right away.
alter table deliveries add column locked_by integer;
