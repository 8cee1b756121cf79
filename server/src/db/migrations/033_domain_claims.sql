-- Custom domains are claims until verified: several workspaces may add the same name (an
-- unverified claim blocks no one); only a verified name is unique across the service. The first
-- workspace to verify owns it, and the other claims are removed in the same transaction.
alter table domains drop constraint domains_name_key;
create unique index domains_workspace_name_idx on domains (workspace_id, name);
create unique index domains_verified_name_idx on domains (name) where verified_at is not null;
