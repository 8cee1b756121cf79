-- The CLI's own login (client hop-cli) acts in every workspace of the user with the user's role in
-- each: its grant names only the default workspace chosen at consent, or none when the user has
-- none yet. Third-party grants still name the one workspace they are bound to.
alter table oauth_grants alter column workspace_id drop not null;

-- RFC 8628 device authorization: the device polls with device_code (stored as a hash, like every
-- other secret); the user types user_code on the approval page. `interval_seconds` grows by 5 each
-- time the device polls too fast (slow_down); approval records the grant the tokens come from.
create table oauth_device_codes (
  device_code_hash text primary key,
  user_code        text not null unique,
  client_id        text not null,
  scopes           text[] not null,
  status           text not null default 'pending' check (status in ('pending', 'approved', 'denied', 'used')),
  grant_id         text references oauth_grants (id) on delete cascade,
  interval_seconds integer not null,
  last_polled_at   timestamptz(3),
  expires_at       timestamptz(3) not null,
  created_at       timestamptz(3) not null default now()
);
create index oauth_device_codes_expiry_idx on oauth_device_codes (expires_at);
