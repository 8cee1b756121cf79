import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Link as HopLink, ListLinksQuery, Workspace } from '@hop/shared';
import { useLinks } from '../queries/links.js';
import { roleMayCall } from '@hop/shared';
import { ErrorAlert } from '../components/error-alert.js';
import { Empty, Loading } from '../components/states.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { LinkFilters } from '../components/link-filters.js';
import { BulkActions } from '../components/link-bulk-actions.js';
import { CopyButton } from '../components/copy-button.js';
import { LinksCsv } from '../components/links-csv.js';
import { dashboardPath } from '@hop/shared';

/** The list's query, kept in the address so a filtered view can be shared and reloaded. */
function useListQuery(): [ListLinksQuery, (patch: Record<string, string | undefined>) => void] {
  const [search, setSearch] = useSearchParams();
  const q: ListLinksQuery = {
    q: search.get('q') || undefined,
    tags: search.get('tags') || undefined,
    domain: search.get('domain') || undefined,
    sort: (search.get('sort') as ListLinksQuery['sort']) || undefined,
    order: (search.get('order') as 'asc' | 'desc') || 'desc',
    cursor: search.get('cursor') || undefined,
    limit: 20,
  };
  const update = (patch: Record<string, string | undefined>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(patch)) if (v) next.set(k, v); else next.delete(k);
    if (!('cursor' in patch)) next.delete('cursor');
    setSearch(next);
  };
  return [q, update];
}

function LinkRow({ link, ws, selected, onSelect, selectable }: { link: HopLink; ws: string; selected: boolean; onSelect: (on: boolean) => void; selectable: boolean }) {
  return (
    <tr>
      <td>{selectable ? <input type="checkbox" aria-label={`Select ${link.slug}`} checked={selected} onChange={(e) => onSelect(e.target.checked)} /> : null}</td>
      <td>
        <Link to={dashboardPath('link', { ws, linkId: link.id })} className="slug">{link.slug}</Link>
        <div className="hint truncate">{link.shortUrl}</div>
      </td>
      <td className="truncate url-cell" title={link.url}>{link.url}</td>
      <td>{link.tags.map((t) => <span key={t} className="tag">{t}</span>)}</td>
      <td className="num">{link.clicks}</td>
      <td>{link.status === 'active' ? 'active' : link.status.replace('_', ' ')}</td>
      <td><CopyButton value={link.shortUrl} label={`Copy ${link.slug}`} /></td>
    </tr>
  );
}

function LinksTable({ workspace }: { workspace: Workspace }) {
  const [query, update] = useListQuery();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [cursors, setCursors] = useState<string[]>([]);
  const list = useLinks(workspace.id, query);
  const canWrite = roleMayCall(workspace.role, 'deleteLink');
  const links = list.data?.data ?? [];
  const toggle = (id: string, on: boolean) => setSelected((s) => { const n = new Set(s); if (on) n.add(id); else n.delete(id); return n; });
  const nextCursor = list.data?.pagination.nextCursor;

  return (
    <>
      <LinkFilters workspace={workspace} query={query} update={update} />
      {canWrite && selected.size > 0 ? <BulkActions workspace={workspace} ids={[...selected]} onDone={() => setSelected(new Set())} /> : null}
      <ErrorAlert error={list.error} />
      {list.isLoading ? <Loading what="Loading links" /> : null}
      {list.data && links.length === 0 ? (
        <Empty>{query.q || query.tags || query.domain ? <p>No link matches these filters.</p> : <p>No links yet.{canWrite ? ' Create your first one.' : ''}</p>}</Empty>
      ) : null}
      {links.length > 0 ? (
        <div className="table-wrap" role="region" aria-label="Links" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{canWrite ? <input type="checkbox" aria-label="Select all" checked={links.every((l) => selected.has(l.id))} onChange={(e) => setSelected(e.target.checked ? new Set(links.map((l) => l.id)) : new Set())} /> : <span className="sr-only">Select</span>}</th>
                <th scope="col">Slug</th><th scope="col">Destination</th><th scope="col">Tags</th><th scope="col">Clicks</th><th scope="col">Status</th><th scope="col"><span className="sr-only">Copy</span></th>
              </tr>
            </thead>
            <tbody>
              {links.map((l) => <LinkRow key={l.id} link={l} ws={workspace.slug} selectable={canWrite} selected={selected.has(l.id)} onSelect={(on) => toggle(l.id, on)} />)}
            </tbody>
          </table>
        </div>
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
