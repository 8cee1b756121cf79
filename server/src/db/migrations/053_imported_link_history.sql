-- A link imported from another shortener keeps that service's history: its lifetime clicks
-- (shown apart from Hop's own and added to the totals) and when it was created there. Both are
-- null for links made on Hop.
alter table links add column imported_clicks integer;
alter table links add column original_created_at timestamptz;
