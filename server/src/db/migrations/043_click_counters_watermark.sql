-- Link counters can trail the rollups: under load the aggregation job adds clicks to
-- `link_counters` once several runs' worth wait, not at every run (docs/decisions.md, "Counters
-- catch up every few runs under load"). `counted_id` is the last click id counted there, moved in
-- the same transaction as the counters; every click up to the watermark is counted already.
alter table click_watermark add column counted_id bigint;
alter table click_watermark add column counted_at timestamptz(3) not null default now();
update click_watermark set counted_id = last_id;
alter table click_watermark alter column counted_id set not null;
