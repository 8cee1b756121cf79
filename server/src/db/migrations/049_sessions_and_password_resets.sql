-- Sign-in sessions: every session token (the dashboard's, the OAuth pages' cookie, a session the
-- CLI stored) names one of these rows, and is good only while its row exists. Ending a session
-- deletes the row; every process reads it on each request, so the token stops working everywhere
-- at once. Rows past their expiry are deleted by the retention job.
create table sessions (
  id           text primary key,
  user_id      text not null references users (id) on delete cascade,
  user_agent   text,
  created_at   timestamptz(3) not null,
  last_used_at timestamptz(3) not null,
  expires_at   timestamptz(3) not null
);
create index sessions_user_idx on sessions (user_id, created_at, id);

-- Password-reset links: the token's SHA-256 only (it carries 256 random bits), single use, 30 minutes.
create table password_resets (
  token_hash text primary key,
  user_id    text not null references users (id) on delete cascade,
  created_at timestamptz(3) not null,
  expires_at timestamptz(3) not null,
  used_at    timestamptz(3)
);
create index password_resets_user_idx on password_resets (user_id, created_at);

-- Connected apps show when a grant was last used (written at most once a minute).
alter table oauth_grants add column last_used_at timestamptz(3);
create index oauth_grants_user_idx on oauth_grants (user_id, created_at, id);
