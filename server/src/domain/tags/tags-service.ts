import type { TagSummary } from '@hop/shared';
import type { Database, Queryable } from '../../db/database.js';
import { notFound } from '../errors.js';
import { z } from 'zod';
import { cursorCodec, pageOf, type PageQuery } from '../pagination.js';

/** Tags list most used first, then by name: the cursor holds both of the last one. */
const tagCursor = cursorCodec(z.strictObject({ n: z.number().int().min(0).max(2_147_483_647), name: z.string().max(100) }));

/**
 * Tags across a workspace. They live on the links (`links.tags`, stored lower-case), so a tag
 * exists while some link carries it; renaming and deleting rewrite every link that does.
 */
export function createTagsService(deps: { db: Database }) {
  const { db } = deps;

  async function summary(q: Queryable, workspaceId: string, name: string): Promise<TagSummary> {
    const [{ n }] = await q.query<{ n: number }>('select count(*)::int as n from links where workspace_id = $1 and $2 = any(tags)', [workspaceId, name]);
    return { name, linkCount: n };
  }

  return {
    /** Most used first, then by name. */
    async list(workspaceId: string, q: PageQuery) {
      const after = q.cursor ? tagCursor.decode(q.cursor) : null;
      const rows = await db.query<{ name: string; link_count: number }>(
        `select name, link_count from (
           select t as name, count(*)::int as link_count from links, unnest(tags) as t where workspace_id = $1 group by t
         ) s where $2::int is null or (link_count < $2 or (link_count = $2 and name > $3))
         order by link_count desc, name limit $4`,
        [workspaceId, after?.n ?? null, after?.name ?? null, q.limit + 1],
      );
      return pageOf(rows, q.limit, (r) => ({ name: r.name, linkCount: r.link_count }), (r) => tagCursor.encode({ n: r.link_count, name: r.name }));
    },

    /**
     * Renames `from` to `to` on every link of the workspace; a link that already has `to` keeps
     * it once (the two merge). Each link keeps its tags' order.
     */
    async rename(workspaceId: string, from: string, to: string): Promise<TagSummary> {
      return db.transaction(async (tx) => {
        const rows = await tx.query(
          `update links set updated_at = now(), tags = array(
             select t from unnest(tags) with ordinality as u(tag, ord), lateral (select case when tag = $2 then $3 else tag end as t) r
             group by t order by min(ord))
           where workspace_id = $1 and $2 = any(tags) returning id`,
          [workspaceId, from, to],
        );
        if (rows.length === 0) throw notFound('tag');
        return summary(tx, workspaceId, to);
      });
    },

    /** Removes the tag from every link of the workspace; answers how many links carried it. */
    async delete(workspaceId: string, name: string): Promise<TagSummary> {
      const rows = await db.query(
        'update links set updated_at = now(), tags = array_remove(tags, $2) where workspace_id = $1 and $2 = any(tags) returning id',
        [workspaceId, name],
      );
      if (rows.length === 0) throw notFound('tag');
      return { name, linkCount: rows.length };
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
