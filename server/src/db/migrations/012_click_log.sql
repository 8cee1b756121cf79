-- Clicks become an append-only log: the redirector appends raw clicks in bulk (COPY), and one job
-- rolls them up later (docs/adr/, "Append, then aggregate"). The log is partitioned by
-- month so retention drops whole partitions; link counters move to a narrow table of their own.

alter table clicks rename to clicks_before_012;
alter index clicks_link_time_idx rename to clicks_before_012_link_time_idx;
alter index clicks_workspace_time_idx rename to clicks_before_012_workspace_time_idx;
alter index clicks_qr_time_idx rename to clicks_before_012_qr_time_idx;
alter sequence clicks_id_seq rename to clicks_before_012_id_seq;

-- No foreign key and no primary key: each would cost a lookup per appended row. The aggregation
-- job skips clicks of deleted links; retention drops them with their partition.
create table clicks (
  id           bigint generated always as identity,
  link_id      text not null,
  workspace_id text not null,
  qr_id        text,
  source       text not null,
  clicked_at   timestamptz(3) not null,
  visitor_hash text not null,
  country      text,
  city         text,
  device       text,
  browser      text,
  os           text,
  referrer     text,
  is_bot       boolean not null,
  -- The redirect already counted it (links with a click limit count at the redirect).
  counted      boolean not null default false,
  -- Which destination served the visit: default, ios, android, rule:N, variant:N.
  target       text not null default 'default'
) partition by range (clicked_at);

-- Ids grow with appends: a BRIN index finds "everything after the watermark" at almost no
-- write cost. QR analytics read raw scans by code.
create index clicks_id_brin on clicks using brin (id);
create index clicks_qr_time_idx on clicks (qr_id, clicked_at) where qr_id is not null;

-- A safety net for a click outside every monthly partition (a clock far off, a very old spool).
create table clicks_default partition of clicks default;

-- Creates the monthly partitions of `months` months from the month of `first` (idempotent).
create function hop_ensure_click_partitions(first timestamptz, months integer) returns void
language plpgsql as $$
declare
  m date := date_trunc('month', first at time zone 'UTC')::date;
begin
  for i in 0 .. months - 1 loop
    if to_regclass('clicks_p' || to_char(m, 'YYYYMM')) is null then
      execute format('create table %I partition of clicks for values from (%L) to (%L)',
        'clicks_p' || to_char(m, 'YYYYMM'), m::timestamp at time zone 'UTC',
        (m + interval '1 month')::timestamp at time zone 'UTC');
    end if;
    m := (m + interval '1 month')::date;
  end loop;
end
$$;

select hop_ensure_click_partitions(
  coalesce((select min(clicked_at) from clicks_before_012), now()),
  (select (extract(year from age(date_trunc('month', now()), date_trunc('month', coalesce(min(clicked_at), now())))) * 12
     + extract(month from age(date_trunc('month', now()), date_trunc('month', coalesce(min(clicked_at), now())))))::int + 3
   from clicks_before_012));

insert into clicks (link_id, workspace_id, qr_id, source, clicked_at, visitor_hash, country, city, device, browser,
  os, referrer, is_bot, counted)
select link_id, workspace_id, qr_id, source, clicked_at, visitor_hash, country, city, device, browser, os, referrer,
  is_bot, true
from clicks_before_012 order by id;
drop table clicks_before_012;

-- Every click before this migration was already rolled up: the job starts after them.
create table click_watermark (
  only_row boolean primary key default true check (only_row),
  last_id  bigint not null
);
insert into click_watermark (last_id) select coalesce(pg_sequence_last_value(pg_get_serial_sequence('clicks', 'id')::regclass), 0);

-- Human clicks per link, out of the wide `links` row (rewriting that row, with its stored search
-- document, cost more than the click itself).
create table link_counters (
  link_id text primary key references links (id) on delete cascade,
  clicks  bigint not null default 0
);
insert into link_counters (link_id, clicks) select id, clicks from links where clicks > 0;
drop index links_workspace_clicks_idx;
alter table links drop column clicks;
