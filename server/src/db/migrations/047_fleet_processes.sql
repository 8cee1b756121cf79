-- The settings every running server process on this database must share (fleet-agreement.ts),
-- one row a process: hashes, never a secret itself. A row stands for as long as its process holds
-- the session advisory lock (72410301, member); a starting process removes rows whose lock is gone.
create table fleet_processes (
  member           integer primary key,
  host             text not null,
  started_at       timestamptz not null default now(),
  secret_hash      text not null,
  rate_limit_store text not null,
  short_domain     text not null
);
