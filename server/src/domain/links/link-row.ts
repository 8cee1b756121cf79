import { STORED_LINK_FIELDS, type Link, type LinkFieldKind, type LinkHealth, type LinkStatus } from '@hop/shared';
import type { SmartFields } from './smart-target.js';
import { iso, isoOrNull } from '../timestamps.js';
import { servable, type Servability } from './servable.js';
import { FIELD_COLUMNS } from './link-columns.js';

export interface LinkRow extends SmartFields {
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
  imported_clicks: number | null;
  original_created_at: Date | null;
  password_hash: string | null;
  clicks: number;
  health: LinkHealth | null;
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
export const LINK_COLUMNS = `id, workspace_id, ${FIELD_COLUMNS.join(', ')}, password_hash, ${LINK_CLICKS_SQL} as clicks,
  health, created_by, created_at, updated_at`;

/** What the redirector does with a row's link at `now`, by the redirector's own rule. */
export function servableRow(r: Pick<LinkRow, 'expires_at' | 'max_clicks' | 'clicks' | 'password_hash'>, now: Date): Servability {
  return servable(
    { expiresAt: r.expires_at ? r.expires_at.getTime() : null, maxClicks: r.max_clicks, passwordHash: r.password_hash, clicks: Number(r.clicks) },
    now.getTime(),
  );
}

/** The `status` field: whether the link serves visitors (once its password is given, if any). */
export function linkStatus(r: Pick<LinkRow, 'expires_at' | 'max_clicks' | 'clicks' | 'password_hash'>, now: Date): LinkStatus {
  const verdict = servableRow(r, now);
  return verdict === 'expired' || verdict === 'limit_reached' ? verdict : 'active';
}

/** A stored field's column value as the link object carries it. */
function fromColumn(kind: LinkFieldKind, v: unknown): unknown {
  if (kind === 'time') return isoOrNull(v as Date | null);
  if (kind === 'tags') return v ?? [];
  return v ?? null;
}

export function toLink(r: LinkRow, shortUrl: (domain: string, slug: string) => string, now: Date): Link {
  const columns = r as unknown as Record<string, unknown>;
  return {
    id: r.id,
    ...(Object.fromEntries(STORED_LINK_FIELDS.map((f) => [f.name, fromColumn(f.kind, columns[f.column])])) as Pick<Link, (typeof STORED_LINK_FIELDS)[number]['name']>),
    shortUrl: shortUrl(r.domain, r.slug),
    passwordProtected: r.password_hash != null,
    clicks: Number(r.clicks),
    status: linkStatus(r, now),
    health: r.health ?? null,
    createdBy: r.created_by,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}
