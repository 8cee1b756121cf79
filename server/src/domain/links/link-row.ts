import type { Link, LinkStatus } from '@hop/shared';
import { iso, isoOrNull } from '../timestamps.js';

export interface LinkRow {
  id: string;
  workspace_id: string;
  domain: string;
  slug: string;
  url: string;
  title: string | null;
  description: string | null;
  tags: string[];
  expires_at: Date | null;
  expired_url: string | null;
  max_clicks: number | null;
  password_hash: string | null;
  clicks: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * A link's human clicks, from its narrow counter row (kept apart from the wide `links` row, which
 * the click path would otherwise rewrite): usable in any statement whose link table is `links`.
 */
export const LINK_CLICKS_SQL = 'coalesce((select lc.clicks from link_counters lc where lc.link_id = links.id), 0)';

/** Columns every link query selects: everything but the search document. */
export const LINK_COLUMNS = `id, workspace_id, domain, slug, url, title, description, tags, expires_at, expired_url,
  max_clicks, password_hash, ${LINK_CLICKS_SQL} as clicks, created_by, created_at, updated_at`;

export function linkStatus(r: Pick<LinkRow, 'expires_at' | 'max_clicks' | 'clicks'>, now: Date): LinkStatus {
  if (r.expires_at && r.expires_at.getTime() <= now.getTime()) return 'expired';
  if (r.max_clicks != null && r.clicks >= r.max_clicks) return 'limit_reached';
  return 'active';
}

export function toLink(r: LinkRow, shortUrl: (domain: string, slug: string) => string, now: Date): Link {
  return {
    id: r.id,
    slug: r.slug,
    domain: r.domain,
    url: r.url,
    shortUrl: shortUrl(r.domain, r.slug),
    title: r.title,
    description: r.description,
    tags: r.tags ?? [],
    expiresAt: isoOrNull(r.expires_at),
    expiredUrl: r.expired_url,
    maxClicks: r.max_clicks,
    passwordProtected: r.password_hash != null,
    clicks: Number(r.clicks),
    status: linkStatus(r, now),
    createdBy: r.created_by,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}
