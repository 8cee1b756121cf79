-- Events (the outbox), webhooks and their deliveries. An event and its deliveries are written in
-- the same transaction as the change that causes them, so a crash loses none.

create table events (
  seq          bigint generated always as identity unique,
  id           text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  type         text not null,
  -- The envelope exactly as sent (json keeps its text and key order). Kept 7 days.
  payload      json,
  created_at   timestamptz(3) not null default now()
);
create index events_workspace_seq_idx on events (workspace_id, seq);
create index events_created_idx on events (created_at);

create table webhooks (
  id                   text primary key,
  workspace_id         text not null references workspaces (id) on delete cascade,
  url                  text not null,
  description          text,
  events               text[] not null,
  is_active            boolean not null default true,
  -- Secrets are encrypted with a key derived from HOP_SECRET (AES-256-GCM).
  secret               text not null,
  previous_secret      text,
  previous_secret_until timestamptz(3),
  consecutive_failures integer not null default 0,
  disabled_at          timestamptz(3),
  -- Created through the integration surface (REST hooks) rather than the API.
  source               text not null default 'api' check (source in ('api', 'integration')),
  created_by           text references users (id) on delete set null,
  created_at           timestamptz(3) not null default now(),
  updated_at           timestamptz(3) not null default now()
);
create index webhooks_workspace_idx on webhooks (workspace_id);

create table deliveries (
  id              text primary key,
  webhook_id      text not null references webhooks (id) on delete cascade,
  event_id        text not null,
  event_type      text not null,
  status          text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  attempt_count   integer not null default 0,
  next_attempt_at timestamptz(3),
  -- A claimed delivery is leased to one process until then; an expired lease means it crashed.
  locked_until    timestamptz(3),
  created_at      timestamptz(3) not null default now(),
  updated_at      timestamptz(3) not null default now(),
  unique (event_id, webhook_id)
);
create index deliveries_due_idx on deliveries (next_attempt_at) where status = 'pending';
create index deliveries_webhook_idx on deliveries (webhook_id, created_at desc);

create table delivery_attempts (
  delivery_id text not null references deliveries (id) on delete cascade,
  number      integer not null,
  at          timestamptz(3) not null,
  status_code integer,
  duration_ms integer not null,
  error       text,
  primary key (delivery_id, number)
);

-- Manual retries allow one more attempt than were made; the schedule allows five.
alter table deliveries add column max_attempts integer not null default 5;

-- When the expiry job announced link.expired for the current expiresAt (null: not yet).
alter table links add column expired_at timestamptz(3);
create index links_expiry_due_idx on links (expires_at) where expired_at is null and expires_at is not null;

-- Live event streams (`hop webhooks tail`), so that every process knows to emit click events.
create table event_stream_sessions (
  id           text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  expires_at   timestamptz(3) not null
);
create index event_stream_sessions_workspace_idx on event_stream_sessions (workspace_id);
