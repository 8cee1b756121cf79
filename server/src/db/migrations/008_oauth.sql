-- OAuth 2.0: clients registered by workspaces, grants (one user's consent for one client
-- and one workspace), authorization codes and tokens. Secrets, codes and tokens are stored only as
-- SHA-256 hashes: they carry at least 190 random bits, so a fast hash cannot be walked back.

create table oauth_clients (
  id            text primary key,
  workspace_id  text not null references workspaces (id) on delete cascade,
  name          text not null,
  type          text not null check (type in ('confidential', 'public')),
  redirect_uris text[] not null,
  secret_hash   text,
  created_by    text references users (id) on delete set null,
  created_at    timestamptz(3) not null default now()
);
create index oauth_clients_workspace_idx on oauth_clients (workspace_id, created_at);

-- client_id is not a foreign key: the built-in CLI client (hop-cli) has no row. Deleting a client
-- deletes its grants in the same transaction.
create table oauth_grants (
  id           text primary key,
  client_id    text not null,
  user_id      text not null references users (id) on delete cascade,
  workspace_id text not null references workspaces (id) on delete cascade,
  scopes       text[] not null,
  revoked_at   timestamptz(3),
  created_at   timestamptz(3) not null default now()
);
create index oauth_grants_client_idx on oauth_grants (client_id);

create table oauth_codes (
  code_hash      text primary key,
  grant_id       text not null references oauth_grants (id) on delete cascade,
  redirect_uri   text not null,
  code_challenge text not null,
  expires_at     timestamptz(3) not null,
  used_at        timestamptz(3)
);
create index oauth_codes_grant_idx on oauth_codes (grant_id);

-- kind 'access' lives an hour, 'refresh' 90 days; a refresh token is used once (used_at), and
-- presenting a used one revokes the grant (refresh-token reuse detection).
create table oauth_tokens (
  token_hash text primary key,
  grant_id   text not null references oauth_grants (id) on delete cascade,
  kind       text not null check (kind in ('access', 'refresh')),
  scopes     text[] not null,
  expires_at timestamptz(3) not null,
  used_at    timestamptz(3),
  created_at timestamptz(3) not null default now()
);
create index oauth_tokens_grant_idx on oauth_tokens (grant_id);
