-- `counted_id` is the last click id added to `link_counters`, kept beside the rollups' watermark so
-- that counters and rollups can be moved apart: every click up to it is counted already, and
-- counters a run left behind catch up from it.
alter table click_watermark add column counted_id bigint;
alter table click_watermark add column counted_at timestamptz(3) not null default now();
update click_watermark set counted_id = last_id;
alter table click_watermark alter column counted_id set not null;

-- A server of an earlier version, still running during a deploy, would roll up and count in one
-- statement and move only `last_id`: its clicks would then be counted again from `counted_id`.
-- Each run of this version moves the watermark together with `runs`; an update that moves
-- `last_id` without it is refused, so such a run fails, with this message, and changes nothing.
alter table click_watermark add column runs bigint not null default 0;
create function hop_click_watermark_fence() returns trigger language plpgsql as $$
begin
  if new.last_id <> old.last_id and new.runs = old.runs then
    raise exception 'the click watermark moved without counting its run: a server of a version before migration 043 is rolling up clicks; stop its jobs';
  end if;
  return new;
end
$$;
create trigger click_watermark_fence before update on click_watermark
  for each row execute function hop_click_watermark_fence();
