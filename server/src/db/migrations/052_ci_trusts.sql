-- CI trusts (docs/ci.md): the CI jobs of a repository, as an OIDC issuer names them, may exchange
-- their ID token for a short-lived access token with the trust's scopes in its workspace. The
-- exchanged token acts as the admin who added the trust, within those scopes. Last use is kept to
-- show, in the list, whether a trust is still in use and by which job.
create table ci_trusts (
  id                text primary key,
  workspace_id      text not null references workspaces (id) on delete cascade,
  issuer            text not null,
  repository        text not null,
  ref               text,
  environment       text,
  workflow          text,
  scopes            text[] not null,
  created_by        text not null references users (id) on delete cascade,
  created_at        timestamptz(3) not null default now(),
  last_used_at      timestamptz(3),
  last_used_subject text
);
create index ci_trusts_workspace_idx on ci_trusts (workspace_id, created_at, id);
-- The exchange finds trusts by the token's issuer and repository, across workspaces.
create index ci_trusts_issuer_idx on ci_trusts (issuer, lower(repository));

-- Exchanged access tokens: the SHA-256 of a token of 256 random bits, at most 15 minutes. Removing
-- the trust deletes them, so none authenticates again.
create table ci_tokens (
  token_hash   text primary key,
  trust_id     text not null references ci_trusts (id) on delete cascade,
  workspace_id text not null,
  user_id      text not null,
  scopes       text[] not null,
  created_at   timestamptz(3) not null default now(),
  expires_at   timestamptz(3) not null
);
create index ci_tokens_expiry_idx on ci_tokens (expires_at);
