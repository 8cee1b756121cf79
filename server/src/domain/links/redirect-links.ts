import type { Queryable } from '../../db/database.js';

/** What the redirector keeps of a link: enough to answer a visit without the database. */
export interface RedirectLink {
  id: string;
  workspaceId: string;
  domain: string;
  slug: string;
  url: string;
  expiresAt: number | null;
  expiredUrl: string | null;
  maxClicks: number | null;
  /** Needed to check a password and to tie unlock cookies to the current password. */
  passwordHash: string | null;
}

/** The redirector's reads and its one write: the atomic click of a link with a limit. */
export function createRedirectLinks(deps: { db: Queryable }) {
  const { db } = deps;
  return {
    async find(domain: string, slug: string): Promise<RedirectLink | null> {
      const [r] = await db.query<{
        id: string; workspace_id: string; domain: string; slug: string; url: string; expires_at: Date | null;
        expired_url: string | null; max_clicks: number | null; password_hash: string | null;
      }>(
        `select id, workspace_id, domain, slug, url, expires_at, expired_url, max_clicks, password_hash
         from links where domain = $1 and slug = $2`,
        [domain, slug],
      );
      if (!r) return null;
      return {
        id: r.id, workspaceId: r.workspace_id, domain: r.domain, slug: r.slug, url: r.url,
        expiresAt: r.expires_at ? r.expires_at.getTime() : null, expiredUrl: r.expired_url,
        maxClicks: r.max_clicks, passwordHash: r.password_hash,
      };
    },

    /**
     * Counts one human click of a link with a limit, unless the limit is reached. One statement
     * (the conflicting counter row is locked and its condition checked again), so concurrent
     * visitors in any process never push the count past `maxClicks`.
     */
    async consumeLimitedClick(linkId: string): Promise<boolean> {
      const rows = await db.query(
        `insert into link_counters as c (link_id, clicks)
         select id, 1 from links where id = $1 and max_clicks > 0
         on conflict (link_id) do update set clicks = c.clicks + 1
           where c.clicks < (select max_clicks from links where id = $1)
         returning 1`,
        [linkId],
      );
      return rows.length === 1;
    },

    async limitReached(linkId: string): Promise<boolean> {
      const [r] = await db.query<{ reached: boolean }>(
        `select l.max_clicks is not null and coalesce(c.clicks, 0) >= l.max_clicks as reached
         from links l left join link_counters c on c.link_id = l.id where l.id = $1`,
        [linkId],
      );
      return r?.reached ?? true;
    },
  };
}

export type RedirectLinks = ReturnType<typeof createRedirectLinks>;
