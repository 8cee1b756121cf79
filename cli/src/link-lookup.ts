import type { HopClient } from '@hop/shared/client';
import { UsageError } from './errors.js';

/**
 * A link's id from what a person types: its id (`lnk_...`) as it is, else its slug, found through
 * the search (the slug is one of its words) and matched exactly; `domain` tells apart one slug on
 * two domains.
 */
export async function linkIdOf(api: HopClient, workspaceId: string, idOrSlug: string, domain?: string): Promise<string> {
  if (/^lnk_[0-9A-Za-z]{16,}$/.test(idOrSlug)) return idOrSlug;
  let cursor: string | undefined;
  const found = [];
  do {
    const page = await api.call('listLinks', { params: { workspaceId }, query: { q: idOrSlug, domain, limit: 100, cursor } });
    found.push(...page.data.filter((l) => l.slug === idOrSlug));
    cursor = page.pagination.nextCursor ?? undefined;
  } while (cursor && found.length === 0);
  if (found.length === 0) throw new UsageError(`no link with the slug "${idOrSlug}"${domain ? ` on ${domain}` : ''} in this workspace`);
  if (found.length > 1) throw new UsageError(`"${idOrSlug}" is a slug on ${found.map((l) => l.domain).join(' and ')}: pass --domain`);
  return found[0].id;
}
