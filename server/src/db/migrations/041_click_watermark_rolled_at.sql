-- When the aggregation job last moved the watermark: it waits for a few seconds of clicks before a
-- run (docs/adr/, "The job waits for clicks to merge"), and the fleet shares that clock.
alter table click_watermark add column rolled_at timestamptz(3) not null default now();
