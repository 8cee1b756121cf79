/**
 * The messages between the embedded database's client (the server's main thread) and the worker
 * thread that runs PGlite (docs/adr/, "The embedded database in a worker thread"). Values
 * cross by structured clone, which keeps what PGlite returns as it is: Date, Uint8Array, bigint,
 * numbers, numerics as strings, parsed JSON.
 */

import type { CopyFormat } from './database.js';

/** A statement or a step of a transaction; `tx` names the open transaction it runs in. */
export type Request =
  | { op: 'query'; text: string; params: unknown[]; tx?: number; urgent?: boolean }
  | { op: 'exec'; script: string; tx?: number }
  | { op: 'copyIn'; table: string; columns: readonly string[]; rows: string | Uint8Array; format?: CopyFormat; tx?: number }
  | { op: 'begin' }
  | { op: 'commit'; tx: number }
  | { op: 'rollback'; tx: number }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'close' };

export type Call = Request & { id: number };

/** What the worker posts: the answer to call `id`, a notification, or whether it opened. */
export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: ErrorFields }
  | { notify: string; payload: string }
  | { opened: true }
  | { opened: false; error: ErrorFields };

/** An error as plain fields: its message, name and PostgreSQL's (code, constraint, detail...). */
export type ErrorFields = Record<string, string | number>;

export interface WorkerInput {
  /** Where PGlite keeps its files. */
  dataDir: string;
}

/** Strings and numbers only: PostgreSQL's error fields are, and `params` (the statement's values) must not cross. */
export function errorFields(err: unknown): ErrorFields {
  if (!(err instanceof Error)) return { message: String(err), name: 'Error' };
  const fields: ErrorFields = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) {
    if (key !== 'params' && key !== 'query' && (typeof value === 'string' || typeof value === 'number')) fields[key] = value;
  }
  return fields;
}

/** The error the caller sees, carrying the same `code`, `constraint`, `detail`... as PGlite's. */
export class EmbeddedDatabaseError extends Error {
  [field: string]: unknown;
  constructor(fields: ErrorFields) {
    super(String(fields.message));
    for (const [key, value] of Object.entries(fields)) if (key !== 'message' && key !== 'name') this[key] = value;
    this.name = String(fields.name ?? 'Error');
  }
}
