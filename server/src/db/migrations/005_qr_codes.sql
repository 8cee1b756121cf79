-- QR codes (docs/api.md, QR codes). Each encodes {scheme}://{domain}/q/{code}: `code` is the record's stable
-- address, resolved by the redirector to the link's current slug and destination. The render is
-- made once at creation and kept with the record (the record never changes, so neither does its
-- image); downloads read it. A deleted code keeps its row (without the image) so that deleting
-- does not give back quota: creations per hour are counted from created_at.

create table qr_codes (
  id               text primary key,
  workspace_id     text not null references workspaces (id) on delete cascade,
  link_id          text not null references links (id) on delete cascade,
  code             text not null unique,
  scan_url         text not null,
  format           text not null check (format in ('png', 'svg', 'pdf')),
  size             integer not null,
  error_correction text not null check (error_correction in ('L', 'M', 'Q', 'H')),
  foreground_color text not null,
  background_color text not null,
  logo_url         text,
  logo_size        integer,
  content_type     text not null,
  image            bytea,
  created_by       text references users (id) on delete set null,
  created_at       timestamptz(3) not null default now(),
  deleted_at       timestamptz(3)
);
create index qr_codes_link_idx on qr_codes (link_id, id desc) where deleted_at is null;
create index qr_codes_workspace_created_idx on qr_codes (workspace_id, created_at);

-- A deleted code must stop resolving in every process: reuse the link channel, whose listeners
-- drop the link's cached entries (its QR codes' included).
create function notify_qr_code_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('hop_link_changed', old.link_id);
  return null;
end
$$;

create trigger qr_codes_changed after update of deleted_at or delete on qr_codes for each row
  execute function notify_qr_code_changed();
