-- How far each spool file of a server (visits written to its data directory while the database
-- was unreachable) has been replayed: moved in the same transaction as the replayed clicks, so a
-- replay that dies halfway resumes where its last commit left off and writes no click twice.
create table click_spool_progress (
  segment     text primary key,
  byte_offset bigint not null,
  updated_at  timestamptz(3) not null default now()
);
