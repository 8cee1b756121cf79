// Links as CSV rows, for `hop links export|import` and the dashboard's export and import: the
// columns, a link as its cells, a row as a create body. Parsing and writing the CSV text is each
// caller's library (csv-parse and csv-stringify, node's or the browser's build).
import { CSV_LINK_FIELDS } from './link-fields.js';
import { CreateLinkBodySchema, type CreateLinkBody, type Link } from './links.js';
import { csvCell } from './csv-cells.js';

/** Read-only columns: written by an export, ignored by an import. */
const READ_ONLY_COLUMNS = ['id', 'shortUrl', 'clicks', 'status', 'createdAt', 'updatedAt'];
const IGNORED = new Set([...READ_ONLY_COLUMNS, 'passwordProtected', 'createdBy']);

/** The CSV columns an import reads: the link fields of the CSV. */
export const LINK_CSV_IMPORT_COLUMNS: readonly string[] = CSV_LINK_FIELDS.map((f) => f.name);

/** The CSV columns, in order: the stored link fields an import reads, then the read-only rest. */
export const LINK_CSV_COLUMNS: readonly string[] = [...CSV_LINK_FIELDS.filter((f) => f.column).map((f) => f.name), ...READ_ONLY_COLUMNS];

/** A link as the cells of LINK_CSV_COLUMNS (tags joined with commas). */
export const linkCsvCells = (link: Link): string[] => LINK_CSV_COLUMNS.map((c) => {
  const v = (link as unknown as Record<string, unknown>)[c];
  return csvCell(Array.isArray(v) ? v.join(',') : String(v ?? ''));
});

/** The columns of a header that are neither read nor ignored by an import. */
export const unknownCsvColumns = (columns: string[]) => columns.filter((c) => !LINK_CSV_IMPORT_COLUMNS.includes(c) && !IGNORED.has(c));

/**
 * One CSV row as a create body: empty cells are left out, tags split on commas, integers as
 * numbers; `problem` (`slug: may hold only ...`) when the body would be refused.
 */
export function csvRowToBody(row: Record<string, string>): { body: CreateLinkBody; problem?: undefined } | { body?: undefined; problem: string } {
  const body: Record<string, unknown> = {};
  for (const f of CSV_LINK_FIELDS) {
    const v = row[f.name]?.trim();
    if (!v) continue;
    body[f.name] = f.kind === 'tags' ? v.split(',').map((t) => t.trim()).filter(Boolean) : f.kind === 'integer' ? Number(v) : v;
  }
  const parsed = CreateLinkBodySchema.safeParse(body);
  if (parsed.success) return { body: body as CreateLinkBody };
  const issue = parsed.error.issues[0];
  return { problem: `${issue.path.join('.') || 'row'}: ${issue.message}` };
}
