import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { roleMayCall } from '@hop/shared/access';
import { dashboardPath } from '@hop/shared/dashboard-paths';
import { csvRowToBody, LINK_CSV_COLUMNS, LINK_CSV_IMPORT_COLUMNS, linkCsvCells, unknownCsvColumns } from '@hop/shared/links-csv';
import type { CreateLinkBody, Workspace } from '@hop/shared';
import { useFetchAllLinks, useImportLinks } from '../queries/links.js';
import { ErrorAlert } from './error-alert.js';

/** Saves text as a file the browser downloads. */
function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The rows of a CSV file as create bodies, or why it cannot be imported (line numbers as a
 * spreadsheet shows them). The CSV parser and writer load on first use: most visits to the links
 * page never touch CSV, and they would double its script.
 */
async function bodiesOf(text: string): Promise<{ bodies: CreateLinkBody[] } | { problem: string }> {
  const { parse } = await import('csv-parse/browser/esm/sync');
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, bom: true, trim: true });
  } catch (err) {
    return { problem: `not valid CSV: ${(err as Error).message}` };
  }
  if (!rows.length) return { problem: 'the file has no rows' };
  const unknown = unknownCsvColumns(Object.keys(rows[0]));
  if (unknown.length) return { problem: `unknown column(s) ${unknown.join(', ')}; known: ${LINK_CSV_IMPORT_COLUMNS.join(', ')}` };
  const bodies: CreateLinkBody[] = [];
  for (const [i, row] of rows.entries()) {
    const r = csvRowToBody(row);
    if (r.problem !== undefined) return { problem: `line ${i + 2}: ${r.problem}` };
    bodies.push(r.body);
  }
  return { bodies };
}

/**
 * Export every link as the CSV `hop links export` writes, and import one (as `hop links import`
 * reads it) through the bulk endpoint: each row succeeds or fails on its own. Inside LinksCsv's
 * `<details>`, loaded when first opened.
 */
export default function LinksCsvPanel({ workspace }: { workspace: Workspace }) {
  const fetchAll = useFetchAllLinks(workspace.id);
  const importLinks = useImportLinks(workspace.id);
  const [said, setSaid] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    setError(null);
    try {
      const [links, { stringify }] = await Promise.all([fetchAll(), import('csv-stringify/browser/esm/sync')]);
      download(`${workspace.slug}-links.csv`, stringify(links.map(linkCsvCells), { header: true, columns: [...LINK_CSV_COLUMNS] }));
      setSaid(`Exported ${links.length} link${links.length === 1 ? '' : 's'}.`);
    } catch (err) { setError(err); } finally { setExporting(false); }
  };

  const importCsv = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const file = (form.elements.namedItem('csv') as HTMLInputElement).files?.[0];
    setError(null);
    setSaid('');
    if (!file) return setError(new Error('Choose a CSV file to import.'));
    const read = await bodiesOf(await file.text());
    if ('problem' in read) return setError(new Error(`${file.name}: ${read.problem}`));
    importLinks.mutate(read.bodies, {
      onSuccess: (results) => {
        const failed = results.filter((r) => !r.success);
        const first = failed[0] && !failed[0].success ? `; line ${failed[0].index + 2}: ${failed[0].error.message}` : '';
        setSaid(`Imported ${results.length - failed.length} of ${results.length} links${failed.length ? `, ${failed.length} refused${first}` : ''}.`);
        form.reset();
      },
      onError: setError,
    });
  };

  return (
    <>
      <div className="inline">
        <button type="button" className="secondary" onClick={() => void exportCsv()} disabled={exporting}>Export CSV</button>
        {roleMayCall(workspace.role, 'bulkCreateLinks') ? (
          <form className="inline" onSubmit={(e) => void importCsv(e)}>
            <label htmlFor="csv-file">CSV file to import</label>
            <input id="csv-file" name="csv" type="file" accept=".csv,text/csv" />
            <button type="submit" className="secondary" disabled={importLinks.isPending}>Import CSV</button>
          </form>
        ) : null}
      </div>
      <p className="hint">Columns as <code>hop links export</code> writes them: {LINK_CSV_IMPORT_COLUMNS.join(', ')}; an import ignores the read-only ones.</p>
      {roleMayCall(workspace.role, 'bulkCreateLinks') ? (
        <p><Link to={dashboardPath('importLinks', { ws: workspace.slug })}>Import from Bitly, Dub, Shlink, Kutt or YOURLS</Link>, with the plan shown before anything is created.</p>
      ) : null}
      {said ? <p role="status">{said}</p> : null}
      <ErrorAlert error={error} />
    </>
  );
}
