-- Request counters of the rate limits (docs/api.md, Limits), one row per key and fixed window, shared by
-- every process on this database. Unlogged: losing them in a crash only forgives a window.
create unlogged table rate_limit_counters (
  key          text    not null,
  window_start bigint  not null, -- ms since the epoch
  count        integer not null,
  expires_at   timestamptz not null,
  primary key (key, window_start)
);
create index rate_limit_counters_expires_at on rate_limit_counters (expires_at);
