-- A claim writes each delivery's lease (attempt_count, locked_until, locked_by), none of them an
-- indexed column: on a page with room, the new version stays beside the old one (a HOT update, no
-- entry in any of the table's five indexes). A page filled to the brim has none, so every claim
-- moved its row to another page and added an entry to each index, the bulk of PostgreSQL's work
-- per delivery. Half of each new page is left free for those versions; the outcome's update
-- (status, next_attempt_at: indexed) is not HOT either way.
alter table deliveries set (fillfactor = 50);
