-- The default target's rollup rows repeated `total` for every link that is not smart (one row in
-- eight the aggregation job upserted). Analytics now derive it as the total less the other targets
-- (docs/decisions.md, "The default target is derived"), and the job writes none.
delete from click_rollups where dimension = 'target' and key = 'default';
