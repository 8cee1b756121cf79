-- The search document parsed the URL as one token ("example.com/a/zebra"), so no word of a URL's
-- path or query could be found. Rebuild it with the URL split on punctuation into words, still at
-- weight C, so the GIN index serves those searches too.
alter table links drop column search;
alter table links add column search tsvector generated always as (
  setweight(to_tsvector('simple', slug), 'A') ||
  setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
  setweight(to_tsvector('english', coalesce(description, '')), 'B') ||
  setweight(to_tsvector('simple', url), 'C') ||
  setweight(to_tsvector('simple', regexp_replace(url, '[^A-Za-z0-9]+', ' ', 'g')), 'C')
) stored;
create index links_search_idx on links using gin (search);
