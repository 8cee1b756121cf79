-- Each month of the click log is split by link into 16 partitions (a hash of the link id), so that
-- a link's analytics read only its sixteenth of the clicks not yet rolled up: before, they read
-- every link's, which is what kept the aggregation job's runs short (docs/adr/, "The click
-- log is split by link within each month"). Retention still drops a whole month at a time.

create or replace function hop_ensure_click_partitions(first timestamptz, months integer) returns void
language plpgsql as $$
declare
  m date := date_trunc('month', first at time zone 'UTC')::date;
  month_table text;
begin
  for i in 0 .. months - 1 loop
    month_table := 'clicks_p' || to_char(m, 'YYYYMM');
    if to_regclass(month_table) is null then
      execute format('create table %I partition of clicks for values from (%L) to (%L) partition by hash (link_id)',
        month_table, m::timestamp at time zone 'UTC', (m + interval '1 month')::timestamp at time zone 'UTC');
      for part in 0 .. 15 loop
        execute format('create table %I partition of %I for values with (modulus 16, remainder %s)',
          month_table || '_l' || lpad(part::text, 2, '0'), month_table, part);
      end loop;
    end if;
    m := (m + interval '1 month')::date;
  end loop;
end
$$;

-- Months created before this migration and still empty (the ones ahead, and on a new install
-- every one) are made again split; a month that already holds clicks stays whole until it is
-- dropped, and analytics read its pending clicks as before.
do $$
declare
  month_table record;
  empty boolean;
begin
  for month_table in
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'clicks'::regclass and c.relname ~ '^clicks_p[0-9]{6}$' and c.relkind = 'r'
  loop
    execute format('select not exists (select 1 from %I)', month_table.name) into empty;
    if empty then
      execute format('drop table %I', month_table.name);
      perform hop_ensure_click_partitions(to_date(substr(month_table.name, 9), 'YYYYMM')::timestamp at time zone 'UTC', 1);
    end if;
  end loop;
end
$$;
