-- What a local receiver answered to events forwarded by `hop webhooks tail`, reported back so the
-- workspace's delivery log shows them next to real deliveries. Kept 30 days like delivery logs.
create table stream_results (
  id            bigint generated always as identity primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  event_id      text not null,
  event_type    text not null,
  delivery_id   text not null,
  forwarded_to  text,
  status_code   integer,
  duration_ms   integer not null,
  error         text,
  reported_by   text not null,
  at            timestamptz(3) not null default now()
);
create index stream_results_workspace_idx on stream_results (workspace_id, at desc);
