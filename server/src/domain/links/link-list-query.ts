import type { ListLinksQuery } from '@hop/shared';
import { z } from 'zod';
import { validationError } from '../errors.js';
import { cursorCodec, CursorIdSchema, CursorTimeSchema } from '../pagination.js';
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

const Order = z.enum(['asc', 'desc']);
/** Keyset cursors for column sorts; an offset for relevance, whose scores have no stable key. */
const LinkCursorSchema = z.union([
  z.strictObject({ s: z.literal('relevance'), o: Order, off: z.number().int().min(0).max(1_000_000) }),
  z.strictObject({ s: z.literal('clicks'), o: Order, v: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), id: CursorIdSchema }),
  z.strictObject({ s: z.enum(['createdAt', 'updatedAt']), o: Order, v: CursorTimeSchema, id: CursorIdSchema }),
]);
const linkCursor = cursorCodec(LinkCursorSchema, 'is not a cursor of this list (sort and order must stay the same)');

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

  const cursor = query.cursor ? linkCursor.decode(query.cursor, (c) => c.s === sort && c.o === order) : undefined;
  let orderBy: string;
  let offset = 0;
  if (sort === 'relevance') {
    orderBy = `rank ${order}, created_at desc, id desc`;
    offset = cursor && 'off' in cursor ? cursor.off : 0;
  } else {
    const col = SORT_COLUMNS[sort];
    const dir = order === 'asc' ? 'asc' : 'desc';
    orderBy = `${SORT_SQL[col]} ${dir}, id ${dir}`;
    if (cursor && 'id' in cursor) {
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
      if (sort === 'relevance') return linkCursor.encode({ s: sort, o: order, off: pageStart + query.limit });
      const col = SORT_COLUMNS[sort];
      if (sort === 'clicks') return linkCursor.encode({ s: sort, o: order, v: Number(last.clicks), id: last.id });
      return linkCursor.encode({ s: sort, o: order, v: (last[col as 'created_at' | 'updated_at']).toISOString(), id: last.id });
    },
    offset,
  };
}
