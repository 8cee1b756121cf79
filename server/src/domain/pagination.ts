import { z } from 'zod';
import { validationError } from './errors.js';
import { nulProblem } from './nul-bytes.js';

/**
 * The one cursor codec of every list: a cursor is base64url JSON of a value that `schema` checks
 * on the way back in. A cursor is client input: one that does not decode, or decodes to anything
 * the schema refuses, is a 400 naming `query.cursor`, never a value that reaches SQL.
 */
export function cursorCodec<S extends z.ZodType>(schema: S, refusal = 'is not a cursor this list gave') {
  const refuse = () => validationError('query.cursor', refusal);
  return {
    encode: (value: z.input<S>): string => Buffer.from(JSON.stringify(value)).toString('base64url'),
    /** The cursor's value; refused too when `accept` says it belongs to another view of the list. */
    decode(cursor: string, accept: (value: z.output<S>) => boolean = () => true): z.output<S> {
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      } catch {
        throw refuse();
      }
      // A value with a NUL could not be compared with a stored one: PostgreSQL text cannot hold it.
      if (nulProblem(value, [])) throw refuse();
      const parsed = schema.safeParse(value);
      if (!parsed.success || !accept(parsed.data)) throw refuse();
      return parsed.data;
    },
  };
}

/** A timestamp as the database stores it (milliseconds), within what PostgreSQL can cast. */
export const CursorTimeSchema = z.iso.datetime().refine((t) => {
  const ms = Date.parse(t);
  return ms >= 0 && ms < Date.UTC(10_000, 0, 1);
});
export const CursorIdSchema = z.string().regex(/^[a-z]{2,3}_[0-9A-Za-z]{16,40}$/);

/** The position after a row of a list ordered by (created_at, id): most lists. */
export const createdKeyset = cursorCodec(z.strictObject({ t: CursorTimeSchema, id: CursorIdSchema }));
export type CreatedKey = { t: string; id: string };

/** The cursor after `row` in a list ordered by (created_at, id). */
export const afterCreated = (row: { created_at: Date; id: string }) => createdKeyset.encode({ t: row.created_at.toISOString(), id: row.id });

/** `[t, id]` of a cursor for a list ordered by (created_at, id), or nulls for the first page. */
export function createdKeyOf(cursor: string | undefined): [string | null, string | null] {
  if (!cursor) return [null, null];
  const key = createdKeyset.decode(cursor);
  return [key.t, key.id];
}

export interface PageQuery {
  limit: number;
  cursor?: string;
}

/**
 * One page out of `limit + 1` rows fetched: the page, and the cursor after its last row when
 * there is more.
 */
export function pageOf<R, T>(rows: R[], limit: number, present: (row: R) => T, cursorAfter: (last: R) => string) {
  const page = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? cursorAfter(page[page.length - 1]) : null;
  return { data: page.map(present), pagination: { nextCursor, limit } };
}
