-- The per-link cap counts wrong passwords from every visitor of a link together.
create index if not exists password_failures_link_idx on password_failures (link_id, failed_at);
