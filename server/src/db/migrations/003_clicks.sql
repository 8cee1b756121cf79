-- The click pipeline: one row per visit, daily rollups for fast analytics, the rotating salt that
-- hashes visitors, and failed password attempts for lockouts. No column ever holds a raw IP.

create table clicks (
  id           bigint generated always as identity primary key,
  link_id      text not null references links (id) on delete cascade,
  workspace_id text not null,
  qr_id        text,
  source       text not null check (source in ('link', 'qr')),
  clicked_at   timestamptz(3) not null,
  visitor_hash text not null,
  country      text,
  city         text,
  device       text check (device in ('mobile', 'desktop', 'tablet')),
  browser      text,
  os           text,
  referrer     text,
  is_bot       boolean not null
);
create index clicks_link_time_idx on clicks (link_id, clicked_at);
create index clicks_workspace_time_idx on clicks (workspace_id, clicked_at);
create index clicks_qr_time_idx on clicks (qr_id, clicked_at) where qr_id is not null;

-- Per link, UTC day, dimension and key: human clicks and unique visitors. `total` has key ''.
-- Dimensions: total, country, device, browser, os, referrer, password_failures.
create table click_rollups (
  link_id      text not null references links (id) on delete cascade,
  workspace_id text not null,
  day          date not null,
  dimension    text not null,
  key          text not null,
  clicks       integer not null default 0,
  uniques      integer not null default 0,
  primary key (link_id, day, dimension, key)
);
create index click_rollups_workspace_day_idx on click_rollups (workspace_id, day);

-- Who has visited a link on a day, so a visitor counts once as unique; kept two days.
create table daily_visitors (
  link_id      text not null,
  day          date not null,
  visitor_hash text not null,
  primary key (link_id, day, visitor_hash)
);

-- One salt per UTC day; yesterday's is deleted once the day is over.
create table visitor_salts (
  day  date primary key,
  salt text not null
);

create table password_failures (
  link_id      text not null references links (id) on delete cascade,
  visitor_hash text not null,
  failed_at    timestamptz(3) not null
);
create index password_failures_lookup_idx on password_failures (link_id, visitor_hash, failed_at);

-- Tell every server process when a link's redirect-relevant fields change, so per-process caches
-- drop it (PGlite and PostgreSQL both deliver NOTIFY). Click counts are not among those fields.
create function notify_link_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('hop_link_changed', coalesce(old.id, new.id));
  return null;
end
$$;

create trigger links_changed_update after update on links for each row
  when (old.url is distinct from new.url or old.slug is distinct from new.slug
        or old.domain is distinct from new.domain or old.expires_at is distinct from new.expires_at
        or old.expired_url is distinct from new.expired_url or old.max_clicks is distinct from new.max_clicks
        or old.password_hash is distinct from new.password_hash)
  execute function notify_link_changed();
create trigger links_changed_delete after delete on links for each row execute function notify_link_changed();
