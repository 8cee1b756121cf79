import type { ListLinksQuery } from '@hop/shared';
import { validationError } from '../errors.js';
import { LINK_CLICKS_SQL } from './link-row.js';

type ParsedListQuery = {
  limit: number;
  cursor?: string;
  sort?: 'createdAt' | 'updatedAt' | 'clicks' | 'relevance';
  order: 'asc' | 'desc';
  domain?: string;
  tags?: string;
  q?: string;
  createdAfter?: string;
};
export type { ListLinksQuery };

const SORT_COLUMNS = { createdAt: 'created_at', updatedAt: 'updated_at', clicks: 'clicks' } as const;
/** What each sort column is in SQL (clicks live in their own table). */
const SORT_SQL = { created_at: 'created_at', updated_at: 'updated_at', clicks: LINK_CLICKS_SQL } as const;

/** Keyset cursors for column sorts; an offset for relevance, whose scores have no stable key. */
type Cursor = { s: string; o: 'asc' | 'desc'; v?: string | number; id?: string; off?: number };

export const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(raw: string, sort: string, order: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    // Fix: the values inside were trusted, so a cursor that decoded to the right sort but carried a
    // non-date `v`, a missing `id` or a negative `off` reached SQL casts and answered 500. A cursor
    // is client input: check its shape as well as its sort and order.
    if (c && typeof c === 'object' && c.s === sort && c.o === order && cursorValuesOk(c, sort)) return c;
  } catch {
    /* fall through */
  }
  throw validationError('cursor', 'is not a cursor of this list (sort and order must stay the same)');
}

function cursorValuesOk(c: Cursor, sort: string): boolean {
  if (sort === 'relevance') return Number.isSafeInteger(c.off) && (c.off as number) >= 0;
  if (typeof c.id !== 'string' || c.id.length === 0 || c.id.length > 64) return false;
  if (sort === 'clicks') return Number.isSafeInteger(c.v) && (c.v as number) >= 0;
  return typeof c.v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(c.v) && !Number.isNaN(Date.parse(c.v));
}


/** Words of the search as prefix terms, so "exam" finds example.com. Only [A-Za-z0-9] survive. */
function prefixTerms(q: string): string | null {
  const words = q.match(/[A-Za-z0-9]+/g)?.slice(0, 8);
  return words?.length ? words.map((w) => `${w}:*`).join(' & ') : null;
}

/**
 * Builds the SQL of one page of links. Every value is a parameter; only column names chosen
 * from fixed tables above are spliced in.
 */
export function buildListQuery(workspaceId: string, query: ParsedListQuery, columns: string) {
  const sort = query.sort ?? (query.q ? 'relevance' : 'createdAt');
  if (sort === 'relevance' && !query.q) throw validationError('sort', 'relevance needs a search (q)');
  const order = query.order;
  const params: unknown[] = [workspaceId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where = ['workspace_id = $1'];
  if (query.domain) where.push(`domain = ${p(query.domain.toLowerCase())}`);
  if (query.tags) {
    const tags = query.tags.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
    if (tags.length) where.push(`tags @> ${p(tags)}::text[]`);
  }
  if (query.createdAfter) where.push(`created_at > ${p(query.createdAfter)}::timestamptz`);

  let rank = '0';
  if (query.q) {
    const prefix = prefixTerms(query.q);
    // The slug and url are indexed with 'simple' (no stemming), the title and description with
    // 'english': the search is parsed both ways so "stats-7e5e6c70b8" finds its own slug (english
    // would stem it to "stat", and the prefix terms split "7e5e6c70b8" as a number).
    const q = p(query.q);
    const tsq = `(websearch_to_tsquery('english', ${q}) || websearch_to_tsquery('simple', ${q})${prefix ? ` || to_tsquery('simple', ${p(prefix)})` : ''})`;
    // The stored document holds the url's words too (migration 010), so the GIN index serves this.
    where.push(`search @@ ${tsq}`);
    rank = `ts_rank(search, ${tsq})`;
  }

  const cursor = query.cursor ? decodeCursor(query.cursor, sort, order) : undefined;
  let orderBy: string;
  let offset = 0;
  if (sort === 'relevance') {
    orderBy = `rank ${order}, created_at desc, id desc`;
    offset = cursor?.off ?? 0;
  } else {
    const col = SORT_COLUMNS[sort];
    const dir = order === 'asc' ? 'asc' : 'desc';
    orderBy = `${SORT_SQL[col]} ${dir}, id ${dir}`;
    if (cursor) {
      const cast = col === 'clicks' ? '::bigint' : '::timestamptz';
      where.push(`(${SORT_SQL[col]}, id) ${dir === 'asc' ? '>' : '<'} (${p(cursor.v)}${cast}, ${p(cursor.id)})`);
    }
  }
  const sql = `select ${columns}, ${rank} as rank from links where ${where.join(' and ')}
    order by ${orderBy} limit ${p(query.limit + 1)} offset ${p(offset)}`;

  return {
    sql,
    params,
    /** The cursor of the page after one whose last row is `last`. */
    nextCursor(last: { id: string; created_at: Date; updated_at: Date; clicks: number }, pageStart: number): string {
      if (sort === 'relevance') return encodeCursor({ s: sort, o: order, off: pageStart + query.limit });
      const col = SORT_COLUMNS[sort];
      const v = col === 'clicks' ? Number(last.clicks) : (last[col] as Date).toISOString();
      return encodeCursor({ s: sort, o: order, v, id: last.id });
    },
    offset,
  };
}
