-- Custom short domains (docs/api.md, Domains and tags). A name belongs to one workspace across the whole service; it
-- serves links once the TXT record at _hop-challenge.{name} holds `verification_value`.

create table domains (
  id                 text primary key,
  workspace_id       text not null references workspaces (id) on delete cascade,
  name               text not null unique,
  verification_value text not null,
  verified_at        timestamptz(3),
  created_at         timestamptz(3) not null default now()
);
create index domains_workspace_idx on domains (workspace_id, created_at);

-- Tell every server process when the set of domains changes, so the redirector's per-process set
-- of verified host names is reloaded (as links are, see 003).
create function notify_domain_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    perform pg_notify('hop_domain_changed', old.name);
  else
    perform pg_notify('hop_domain_changed', new.name);
  end if;
  return null;
end
$$;

create trigger domains_changed after insert or update or delete on domains for each row
  execute function notify_domain_changed();
