import { STORED_LINK_FIELDS, type LinkFieldKind } from '@hop/shared';

/**
 * The `links` columns of the settable fields, from the shared table of link fields, with what the
 * statements that write them need: the parameter's cast and the type of a JSON record's column.
 * Columns set by the server itself (id, workspace, password hash, author, times) are the callers'.
 */
const CAST: Record<LinkFieldKind, string> = { text: '', url: '', integer: '', time: '', tags: '::text[]', json: '::text::jsonb' };
const RECORD_TYPE: Record<LinkFieldKind, string> = { text: 'text', url: 'text', integer: 'int', time: 'timestamptz', tags: 'text[]', json: 'jsonb' };

export const FIELD_COLUMNS = STORED_LINK_FIELDS.map((f) => f.column);

/** A value as a statement parameter: JSON as text (postgres.js would encode a jsonb string again), SQL null when unset. */
export function columnParam(kind: LinkFieldKind, value: unknown): unknown {
  if (value === undefined || value === null) return kind === 'tags' ? [] : null;
  return kind === 'json' ? JSON.stringify(value) : value;
}

/** `$first, $first+1, ...` with each column's cast, for a VALUES list. */
export const fieldPlaceholders = (first: number) => STORED_LINK_FIELDS.map((f, i) => `$${first + i}${CAST[f.kind]}`);

/** `column = $n` for each field, parameters from `$first`. */
export const fieldAssignments = (first: number) => STORED_LINK_FIELDS.map((f, i) => `${f.column} = $${first + i}${CAST[f.kind]}`);

/** `column type` for each field, for `jsonb_to_recordset(...) as x(...)`. */
export const fieldRecordTypes = () => STORED_LINK_FIELDS.map((f) => `${f.column} ${RECORD_TYPE[f.kind]}`);
