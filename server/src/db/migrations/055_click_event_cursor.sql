-- link.clicked and qr.scanned are produced from the click log, not written with each batch of
-- clicks: the producer reads the committed clicks after `last_id` and moves it in the transaction
-- that writes their events (docs/adr/, "Click events come from the click log"). It starts at the
-- last click handed out: the clicks before it had their events written with them.
create table click_event_cursor (
  one     boolean primary key default true check (one),
  last_id bigint not null
);
insert into click_event_cursor (last_id) select coalesce(pg_sequence_last_value(pg_get_serial_sequence('clicks', 'id')::regclass), 0);
