import { lazy, Suspense, useDeferredValue, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Link as HopLink, ListLinksQuery, Workspace } from '@hop/shared';
import { linksQuery, useLinks } from '../queries/links.js';
import { tagsQuery } from '../queries/tags.js';
import { domainsQuery } from '../queries/domains.js';
import type { PageStart } from '../page-start.js';
import { roleMayCall } from '@hop/shared/access';
import { dashboardPath } from '@hop/shared/dashboard-paths';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { LinkFilters } from '../components/link-filters.js';
import { CopyButton } from '../components/copy-button.js';
import { LinksCsv } from '../components/links-csv.js';
import { DataTable, type Column } from '../components/data-table.js';

// Shown once a link is selected; it checks a tag with the link schemas, which load with it.
const BulkActions = lazy(() => import('../components/link-bulk-actions.js'));

/** The list's query as the address says it. */
function listQueryOf(search: URLSearchParams): ListLinksQuery {
  return {
    q: search.get('q') || undefined,
    tags: search.get('tags') || undefined,
    domain: search.get('domain') || undefined,
    sort: (search.get('sort') as ListLinksQuery['sort']) || undefined,
    order: (search.get('order') as 'asc' | 'desc') || 'desc',
    cursor: search.get('cursor') || undefined,
    limit: 20,
  };
}

/**
 * Asked for as the app starts on this page, once the workspaces are in (page-start.ts): the list,
 * and the tags and domains its filters name, together, rather than as the render reaches each.
 */
export function startData({ queries, api, workspace, search }: PageStart) {
  void queries.prefetchQuery(linksQuery(api, workspace.id, listQueryOf(search)));
  void queries.prefetchQuery(tagsQuery(api, workspace.id));
  void queries.prefetchQuery(domainsQuery(api, workspace.id));
}

/** The list's query, kept in the address so a filtered view can be shared and reloaded. */
function useListQuery(): [ListLinksQuery, (patch: Record<string, string | undefined>) => void] {
  const [search, setSearch] = useSearchParams();
  const q = listQueryOf(search);
  const update = (patch: Record<string, string | undefined>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(patch)) if (v) next.set(k, v); else next.delete(k);
    if (!('cursor' in patch)) next.delete('cursor');
    setSearch(next);
  };
  return [q, update];
}

/** The columns of the links list; on a phone, slug and destination lead each card, then clicks and copy. */
function linkColumns(ws: string, sel: { on: boolean; selected: Set<string>; toggle: (id: string, on: boolean) => void; all: ReactNode }): Column<HopLink>[] {
  return [
    {
      key: 'select', header: sel.all, label: 'Select', phone: 'unlabelled',
      cell: (l) => (sel.on ? <input type="checkbox" aria-label={`Select ${l.slug}`} checked={sel.selected.has(l.id)} onChange={(e) => sel.toggle(l.id, e.target.checked)} /> : null),
    },
    {
      key: 'slug', header: 'Slug', phone: 'title',
      cell: (l) => (
        <>
          <Link to={dashboardPath('link', { ws, linkId: l.id })} className="slug">{l.slug}</Link>
          <div className="hint truncate">{l.shortUrl}</div>
        </>
      ),
    },
    { key: 'url', header: 'Destination', phone: 'wide', cell: (l) => l.url, cellProps: (l) => ({ title: l.url, className: 'truncate url-cell' }) },
    { key: 'tags', header: 'Tags', phone: 'unlabelled', cell: (l) => l.tags.map((t) => <span key={t} className="tag">{t}</span>) },
    { key: 'clicks', header: 'Clicks', numeric: true, cell: (l) => l.clicks },
    { key: 'status', header: 'Status', cell: (l) => l.status.replace('_', ' ') },
    { key: 'copy', header: '', label: 'Copy', phone: 'unlabelled', cell: (l) => <CopyButton value={l.shortUrl} label={`Copy ${l.slug}`} /> },
  ];
}

function LinksTable({ workspace }: { workspace: Workspace }) {
  const [query, update] = useListQuery();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [cursors, setCursors] = useState<string[]>([]);
  const list = useLinks(workspace.id, query);
  // The answer arrives as a synchronous update; the rows are drawn from a deferred copy, in a
  // transition that React splits into short tasks, and until then the list says it is loading.
  const deferred = useDeferredValue(list.data);
  const page = deferred === list.data ? deferred : undefined;
  const canWrite = roleMayCall(workspace.role, 'deleteLink');
  const links = page?.data ?? [];
  const toggle = (id: string, on: boolean) => setSelected((s) => { const n = new Set(s); if (on) n.add(id); else n.delete(id); return n; });
  const nextCursor = page?.pagination.nextCursor;

  return (
    <>
      <LinkFilters workspace={workspace} query={query} update={update} />
      {canWrite && selected.size > 0 ? <Suspense fallback={null}><BulkActions workspace={workspace} ids={[...selected]} onDone={() => setSelected(new Set())} /></Suspense> : null}
      <ErrorAlert error={list.error} />
      {list.isLoading || (list.data && !page) ? <Loading what="Loading links" /> : null}
      {page && links.length === 0 ? (
        <Empty>{query.q || query.tags || query.domain ? <p>No link matches these filters.</p> : <p>No links yet.{canWrite ? ' Create your first one.' : ''}</p>}</Empty>
      ) : null}
      {links.length > 0 ? (
        <DataTable label="Links" rows={links} rowKey={(l) => l.id} columns={linkColumns(workspace.slug, {
          on: canWrite, selected, toggle,
          all: canWrite
            ? <input type="checkbox" aria-label="Select all" checked={links.every((l) => selected.has(l.id))} onChange={(e) => setSelected(e.target.checked ? new Set(links.map((l) => l.id)) : new Set())} />
            : '',
        })} />
      ) : null}
      <nav aria-label="Pages" className="pager">
        <button type="button" className="secondary" disabled={cursors.length === 0} onClick={() => { const prev = cursors.slice(0, -1); setCursors(prev); update({ cursor: prev[prev.length - 1] }); }}>Previous page</button>
        <button type="button" className="secondary" disabled={!nextCursor} onClick={() => { setCursors([...cursors, nextCursor!]); update({ cursor: nextCursor! }); }}>Next page</button>
      </nav>
    </>
  );
}

export default function LinksListPage() {
  return (
    <WithWorkspace>
      {(ws) => (
        <Page title="Links" actions={roleMayCall(ws.role, 'createLink') ? <Link className="button" to={dashboardPath('newLink', { ws: ws.slug })}>Create link</Link> : <button type="button" disabled aria-disabled="true" title="Viewers cannot create links">Create link</button>}>
          <LinksCsv workspace={ws} />
          <LinksTable workspace={ws} />
        </Page>
      )}
    </WithWorkspace>
  );
}
