-- Invitations to join a workspace. The token is stored only as a hash.
create table invites (
  id           text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  email        text not null,
  role         text not null check (role in ('viewer', 'member', 'admin', 'owner')),
  token_hash   text not null unique,
  invited_by   text references users (id) on delete set null,
  expires_at   timestamptz(3) not null,
  accepted_at  timestamptz(3),
  created_at   timestamptz(3) not null default now()
);
create index invites_workspace_idx on invites (workspace_id, created_at);
