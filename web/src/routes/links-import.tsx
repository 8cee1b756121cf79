// Import links from another shortener, from its export file or its API with a token (the server
// reads the API: POST .../links/import/read): the plan first (what is created, skipped, in conflict
// or cannot be imported, and what does not carry), then, on request, the links through the bulk
// endpoint. The same importers and planner as `hop links import --from` (shared/src/import/).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { roleMayCall } from '@hop/shared/access';
import type { UpdateLinkBody } from '@hop/shared';
import { IMPORT_SOURCES, importCounts, planImport, SOURCES, type ImportedLink, type ImportItem, type ImportSourceName, type OnConflict } from '@hop/shared/import';
import { useApi } from '../api.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { ErrorAlert } from '../components/error-alert.js';

const WITH_EXPORT = (Object.keys(SOURCES) as ImportSourceName[]).filter((s) => SOURCES[s].exportFile);
const BULK = 100;

interface Outcome {
  created: number;
  overwritten: number;
  failed: { source: string; message: string }[];
}

const SIGN: Record<ImportItem['action'], string> = { create: 'create', overwrite: 'overwrite', skip: 'skip (already there)', conflict: 'conflict', invalid: 'cannot be imported' };

function notesOf(i: ImportItem): string[] {
  return [
    ...(i.reason ? [i.reason] : []),
    ...(i.domainChanged ? [`domain changed: ${i.source.split('/')[0]} is not a domain of this workspace`] : []),
    ...(i.passwordProtected ? ['password not carried: tagged password-not-imported'] : []),
    ...i.notCarried.map((n) => `not carried: ${n}`),
  ];
}

export default function LinksImportPage() {
  const api = useApi();
  const queries = useQueryClient();
  const [mode, setMode] = useState<'file' | 'token'>('file');
  const [source, setSource] = useState<ImportSourceName>(WITH_EXPORT[0]);
  const [apiUrl, setApiUrl] = useState('');
  const [token, setToken] = useState('');
  const [onConflict, setOnConflict] = useState<OnConflict>('skip');
  const [file, setFile] = useState<File | null>(null);
  const [items, setItems] = useState<ImportItem[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  return (
    <WithWorkspace>
      {(ws) => {
        const mayImport = roleMayCall(ws.role, 'bulkCreateLinks');
        const plan = async (e: React.FormEvent) => {
          e.preventDefault();
          if (mode === 'file' ? !file : !token) return;
          setBusy(true);
          setError(null);
          setOutcome(null);
          setItems(null);
          try {
            let records: ImportedLink[];
            if (mode === 'token') {
              const body = { from: source, token, ...(apiUrl.trim() ? { url: apiUrl.trim() } : {}) };
              records = (await api.call('readImportSource', { params: { workspaceId: ws.id }, body })).data.links;
            } else {
              const { parse } = await import('csv-parse/browser/esm/sync');
              const rows = parse(await file!.text(), { columns: true, skip_empty_lines: true, bom: true, trim: true, relax_column_count: true }) as Record<string, string>[];
              if (!rows.length) throw new Error(`${file!.name}: no rows`);
              records = SOURCES[source].exportFile!.parse(rows);
            }
            const [links, domains] = await Promise.all([
              api.paginate('listLinks', { params: { workspaceId: ws.id }, query: { limit: 100 } }),
              api.paginate('listDomains', { params: { workspaceId: ws.id }, query: { limit: 100 } }),
            ]);
            const customDomains = new Set(domains.data.filter((d) => d.verified).map((d) => d.name.toLowerCase()));
            setItems(planImport(records, links.data, { customDomains, onConflict }));
          } catch (err) {
            setError(err);
          } finally {
            setBusy(false);
          }
        };
        const run = async () => {
          if (!items) return;
          setBusy(true);
          setError(null);
          const result: Outcome = { created: 0, overwritten: 0, failed: [] };
          try {
            const creates = items.filter((i) => i.action === 'create');
            for (let start = 0; start < creates.length; start += BULK) {
              const chunk = creates.slice(start, start + BULK);
              const { data } = await api.call('bulkCreateLinks', { params: { workspaceId: ws.id }, body: chunk.map((i) => i.body!) });
              for (const r of data) {
                if (r.success) result.created++;
                else result.failed.push({ source: chunk[r.index].source, message: r.error.message });
              }
            }
            for (const i of items.filter((x) => x.action === 'overwrite')) {
              try {
                await api.call('updateLink', { params: { workspaceId: ws.id, linkId: i.linkId! }, body: i.body as UpdateLinkBody });
                result.overwritten++;
              } catch (err) {
                result.failed.push({ source: i.source, message: (err as Error).message });
              }
            }
          } catch (err) {
            setError(err);
          } finally {
            setOutcome(result);
            setItems(null);
            setBusy(false);
            await queries.invalidateQueries({ queryKey: ['links', ws.id] });
            await queries.invalidateQueries({ queryKey: ['tags', ws.id] });
          }
        };
        const counts = items ? importCounts(items) : null;
        const writes = counts ? counts.create + counts.overwrite : 0;
        return (
          <Page title="Import links">
            <p className="hint">
              From another shortener's export file or its API: each slug is kept (on the same custom domain when this workspace has
              it), with its destination, title, tags, creation time and lifetime clicks. Nothing is created until you confirm the plan.
              More than 10,000 links: <code>hop links import --from {source}</code>.
            </p>
            {mayImport ? null : <div role="alert" className="alert">Viewers cannot import links.</div>}
            <form onSubmit={plan} aria-label="Import">
              <fieldset>
                <legend>Read from</legend>
                <label><input type="radio" name="mode" checked={mode === 'file'} onChange={() => { setMode('file'); setItems(null); if (!SOURCES[source].exportFile) setSource(WITH_EXPORT[0]); }} /> its export file</label>
                <label><input type="radio" name="mode" checked={mode === 'token'} onChange={() => { setMode('token'); setItems(null); }} /> its API, with a token</label>
              </fieldset>
              <label>Service
                <select value={source} onChange={(e) => { setSource(e.target.value as ImportSourceName); setItems(null); }}>
                  {(mode === 'file' ? WITH_EXPORT : IMPORT_SOURCES).map((s) => <option key={s} value={s}>{s}</option>)}
                </select>
              </label>
              {mode === 'file' ? (
                <>
                  <p className="hint">{SOURCES[source].exportFile?.describe}</p>
                  <label>Export file
                    <input type="file" accept=".csv,text/csv" onChange={(e) => { setFile(e.target.files?.[0] ?? null); setItems(null); }} />
                  </label>
                </>
              ) : (
                <>
                  <label>API address{SOURCES[source].defaultUrl ? ` (default ${SOURCES[source].defaultUrl})` : ''}
                    <input type="url" value={apiUrl} placeholder={SOURCES[source].defaultUrl ?? 'https://'} required={!SOURCES[source].defaultUrl} onChange={(e) => setApiUrl(e.target.value)} />
                  </label>
                  <label>Token: {SOURCES[source].tokenHelp}
                    <input type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
                  </label>
                </>
              )}
              <label>A slug already there with another destination
                <select value={onConflict} onChange={(e) => { setOnConflict(e.target.value as OnConflict); setItems(null); }}>
                  <option value="skip">leave it (report a conflict)</option>
                  <option value="overwrite">overwrite it</option>
                </select>
              </label>
              <button type="submit" disabled={(mode === 'file' ? !file : !token) || busy || !mayImport}>Show the plan</button>
            </form>
            {error ? <ErrorAlert error={error} /> : null}
            {counts && items ? (
              <section aria-label="Plan">
                <p data-testid="import-plan-counts">
                  Plan: {counts.create} to create{counts.overwrite ? `, ${counts.overwrite} to overwrite` : ''}, {counts.skip} to skip (already
                  there), {counts.conflict} conflict(s){counts.invalid ? `, ${counts.invalid} that cannot be imported` : ''}.
                </p>
                <button type="button" onClick={run} disabled={busy || !writes}>Import {writes} link(s)</button>
                <table>
                  <thead><tr><th>Action</th><th>From</th><th>Slug</th><th>Notes</th></tr></thead>
                  <tbody>
                    {items.map((i, n) => (
                      <tr key={n}>
                        <td>{SIGN[i.action]}</td>
                        <td>{i.source}</td>
                        <td>{i.domain ? `${i.domain}/` : ''}{i.slug}</td>
                        <td>{notesOf(i).map((note) => <div key={note}>{note}</div>)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            ) : null}
            {outcome ? (
              <div role="status" data-testid="import-outcome">
                Imported {outcome.created} link(s){outcome.overwritten ? `, overwrote ${outcome.overwritten}` : ''}{outcome.failed.length ? `; ${outcome.failed.length} failed` : ''}.
                {outcome.failed.length ? <ul>{outcome.failed.map((f) => <li key={f.source}>{f.source}: {f.message}</li>)}</ul> : null}
              </div>
            ) : null}
          </Page>
        );
      }}
    </WithWorkspace>
  );
}
