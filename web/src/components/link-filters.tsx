import type { ListLinksQuery, Workspace } from '@hop/shared';
import { useTags } from '../queries/tags.js';
import { useDomains } from '../queries/domains.js';
import { SelectField } from './field.js';

const SORTS = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'updatedAt:desc', label: 'Recently updated' },
  { value: 'clicks:desc', label: 'Most clicks' },
  { value: 'clicks:asc', label: 'Fewest clicks' },
];

/** Search, tag and domain filters and the sort of the links list. */
export function LinkFilters({ workspace, query, update }: { workspace: Workspace; query: ListLinksQuery; update: (p: Record<string, string | undefined>) => void }) {
  const tags = useTags(workspace.id);
  const domains = useDomains(workspace.id);
  const sort = query.sort ? `${query.sort}:${query.order ?? 'desc'}` : 'createdAt:desc';
  return (
    <div className="filters">
      <form role="search" onSubmit={(e) => { e.preventDefault(); update({ q: String(new FormData(e.currentTarget).get('q') ?? '').trim() || undefined }); }}>
        <div className="field">
          <label htmlFor="link-search">Search</label>
          <div className="inline">
            <input id="link-search" name="q" type="search" defaultValue={query.q ?? ''} placeholder="slug, destination, title" />
            <button type="submit" className="secondary">Search</button>
          </div>
        </div>
      </form>
      <SelectField label="Tag" value={query.tags ?? ''} onChange={(e) => update({ tags: e.target.value || undefined })}
        options={[{ value: '', label: 'All tags' }, ...(tags.data ?? []).map((t) => ({ value: t.name, label: `${t.name} (${t.linkCount})` }))]} />
      <SelectField label="Domain" value={query.domain ?? ''} onChange={(e) => update({ domain: e.target.value || undefined })}
        options={[{ value: '', label: 'All domains' }, ...(domains.data ?? []).filter((d) => d.verified).map((d) => d.name)]} />
      <SelectField label="Sort" value={sort} onChange={(e) => { const [s, o] = e.target.value.split(':'); update({ sort: s, order: o }); }} options={SORTS} />
    </div>
  );
}
