-- Tell every server process when a workspace's plan or its own rate limits change, so each drops
-- what it cached of them at once (as links do with hop_link_changed), whichever process or tool
-- made the change.
create function notify_plan_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('hop_plan_changed', new.id);
  return null;
end
$$;

create trigger workspaces_plan_changed after update on workspaces for each row
  when (old.plan is distinct from new.plan
        or old.rate_limit_per_hour is distinct from new.rate_limit_per_hour
        or old.rate_limit_per_minute is distinct from new.rate_limit_per_minute)
  execute function notify_plan_changed();
