-- Each aggregation run adds to the day's rollup rows and to the link counters it touched: an
-- update of every such row, all in one transaction. A page filled to the brim has no room for the
-- new versions, so each update moved its row to another page and added an entry to both of
-- click_rollups' indexes (three WAL records and a dozen buffers each, the bulk of PostgreSQL's
-- CPU per click). With 60% of each page left free, a run's new versions stay on their row's page
-- (HOT updates: no index entry), and the next run prunes the old ones, vacuum or not (the
-- embedded database never vacuums). Past days' rows are never updated: the room is only lost
-- on their pages (docs/adr/, "Rollups updated in place").
alter table click_rollups set (fillfactor = 40);
alter table link_counters set (fillfactor = 40);
