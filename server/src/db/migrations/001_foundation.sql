-- Accounts, workspaces, API keys, links and idempotency records (issue: foundation).

create table users (
  id            text primary key,
  email         text not null,
  name          text not null,
  password_hash text not null,
  created_at    timestamptz(3) not null default now()
);
create unique index users_email_key on users (lower(email));

create table workspaces (
  id                    text primary key,
  name                  text not null,
  slug                  text not null unique,
  plan                  text not null default 'free'
                        check (plan in ('free', 'starter', 'pro', 'business', 'enterprise')),
  rate_limit_per_hour   integer,
  rate_limit_per_minute integer,
  created_at            timestamptz(3) not null default now()
);

create table memberships (
  workspace_id text not null references workspaces (id) on delete cascade,
  user_id      text not null references users (id) on delete cascade,
  role         text not null check (role in ('viewer', 'member', 'admin', 'owner')),
  created_at   timestamptz(3) not null default now(),
  primary key (workspace_id, user_id)
);
create index memberships_user_idx on memberships (user_id);

create table api_keys (
  id           text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  user_id      text not null references users (id) on delete cascade,
  name         text not null,
  prefix       text not null,
  key_hash     text not null unique,
  scopes       text[] not null,
  last_used_at timestamptz(3),
  created_at   timestamptz(3) not null default now()
);
create index api_keys_workspace_idx on api_keys (workspace_id);

create table links (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  domain        text not null,
  slug          text not null,
  url           text not null,
  title         text,
  description   text,
  tags          text[] not null default '{}',
  expires_at    timestamptz(3),
  expired_url   text,
  max_clicks    integer,
  password_hash text,
  clicks        bigint not null default 0,
  created_by    text references users (id) on delete set null,
  created_at    timestamptz(3) not null default now(),
  updated_at    timestamptz(3) not null default now(),
  -- Weighted document for full-text search: slug and title first, then description, then the URL.
  search        tsvector generated always as (
                  setweight(to_tsvector('simple', slug), 'A') ||
                  setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
                  setweight(to_tsvector('english', coalesce(description, '')), 'B') ||
                  setweight(to_tsvector('simple', url), 'C')
                ) stored,
  unique (domain, slug)
);
create index links_workspace_created_idx on links (workspace_id, created_at desc, id desc);
create index links_workspace_updated_idx on links (workspace_id, updated_at desc, id desc);
create index links_workspace_clicks_idx on links (workspace_id, clicks desc, id desc);
create index links_tags_idx on links using gin (tags);
create index links_search_idx on links using gin (search);

-- A POST retried with the same Idempotency-Key answers what the first one answered (24 hours).
create table idempotency_keys (
  scope        text not null,
  key          text not null,
  request_hash text not null,
  status_code  integer,
  response     jsonb,
  created_at   timestamptz(3) not null default now(),
  primary key (scope, key)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);
