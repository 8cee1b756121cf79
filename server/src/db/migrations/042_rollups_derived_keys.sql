-- Rollups keep no row for what the total implies: each dimension's fallback value (no country, no
-- referrer, a desktop, the default target: what a click is when nothing else is known of it). For
-- most links those rows repeated much of the day's total, a third of the rows the aggregation job
-- upserted. Analytics derive each as the total less the dimension's other keys (docs/adr/,
-- "Rollups keep no row for what the total implies"), and the job writes none. `total` and
-- `password_failures` keep their '' key.
delete from click_rollups
where (dimension in ('country', 'browser', 'os', 'referrer') and key = '')
   or (dimension = 'device' and key = 'desktop')
   or (dimension = 'target' and key = 'default');
