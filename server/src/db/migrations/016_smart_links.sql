-- Smart links: targeting rules, A/B variants, app links and social previews (stored exactly as
-- sent), and the destination's last health check.
alter table links
  add column rules    jsonb,
  add column variants jsonb,
  add column ios      text,
  add column android  text,
  add column preview  jsonb,
  add column health   jsonb;

-- The redirector caches these too: a change must drop the cached link in every process. Health is
-- not among them (the redirector never reads it).
drop trigger links_changed_update on links;
create trigger links_changed_update after update on links for each row
  when (old.url is distinct from new.url or old.slug is distinct from new.slug
        or old.domain is distinct from new.domain or old.expires_at is distinct from new.expires_at
        or old.expired_url is distinct from new.expired_url or old.max_clicks is distinct from new.max_clicks
        or old.password_hash is distinct from new.password_hash
        or old.rules is distinct from new.rules or old.variants is distinct from new.variants
        or old.ios is distinct from new.ios or old.android is distinct from new.android
        or old.preview is distinct from new.preview)
  execute function notify_link_changed();
