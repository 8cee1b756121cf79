import type { Database, Queryable } from '../../db/database.js';
import { compileSmart, type SmartFields, type SmartPlan } from './smart-target.js';
import { TOTAL_DIMENSIONS } from '../clicks/rollup-shape.js';

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
  /** Rules, variants, app links and preview, compiled; null for a plain link. */
  smart: SmartPlan | null;
}

type RedirectRow = SmartFields & {
  id: string; workspace_id: string; domain: string; slug: string; url: string; expires_at: Date | null;
  expired_url: string | null; max_clicks: number | null; password_hash: string | null;
};

const REDIRECT_COLUMNS = `l.id, l.workspace_id, l.domain, l.slug, l.url, l.expires_at, l.expired_url, l.max_clicks,
  l.password_hash, l.rules, l.variants, l.ios, l.android, l.preview`;

const toRedirectLink = (r: RedirectRow): RedirectLink => ({
  id: r.id, workspaceId: r.workspace_id, domain: r.domain, slug: r.slug, url: r.url,
  expiresAt: r.expires_at ? r.expires_at.getTime() : null, expiredUrl: r.expired_url,
  maxClicks: r.max_clicks, passwordHash: r.password_hash, smart: compileSmart(r),
});

/** The redirector's reads and its one write: the atomic click of a link with a limit. */
export function createRedirectLinks(deps: { db: Queryable & Pick<Database, 'urgent'> }) {
  const { db } = deps;
  return {
    async find(domain: string, slug: string): Promise<RedirectLink | null> {
      const [r] = await db.query<RedirectRow>(`select ${REDIRECT_COLUMNS} from links l where l.domain = $1 and l.slug = $2`, [domain, slug]);
      return r ? toRedirectLink(r) : null;
    },

    /** The links of one domain among `slugs`, in one statement (the unique index's array scan); absent slugs are absent. */
    async findMany(domain: string, slugs: string[]): Promise<RedirectLink[]> {
      // Prepared (docs/adr/): a cold start sends it hundreds of times a second, the same text
      // whatever the number of slugs, and PostgreSQL planned it at every one (~170 µs each in the
      // cold run of bench/redirect.mjs, pg_stat_statements). Its columns are named, so no
      // migration changes what the plan returns.
      const rows = await db.urgent<RedirectRow>(
        `select ${REDIRECT_COLUMNS} from links l where l.domain = $1 and l.slug = any($2::text[])`,
        [domain, slugs],
        { prepare: true },
      );
      return rows.map(toRedirectLink);
    },

    /**
     * The links visited most over the last `days` UTC days, most visited first, at most `limit`:
     * human clicks rolled up by day, and every click of the log the aggregation job has yet to
     * roll up (what the last minutes before a restart brought).
     */
    async mostVisited(limit: number, days = 7): Promise<RedirectLink[]> {
      const rows = await db.query<RedirectRow>(
        `with visits as (
           select link_id, clicks::bigint as n from click_rollups
           where dimension in ${TOTAL_DIMENSIONS} and day >= current_date - $2::int
           union all
           select link_id, count(*) from clicks
           where id > (select last_id from click_watermark) and clicked_at >= current_date - $2::int and not is_bot
           group by link_id
         ), ranked as (
           select link_id, sum(n) as n from visits group by link_id order by sum(n) desc limit $1
         )
         select ${REDIRECT_COLUMNS} from ranked r join links l on l.id = r.link_id order by r.n desc`,
        [limit, days],
      );
      return rows.map(toRedirectLink);
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
