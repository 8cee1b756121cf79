import type { HopClient } from '@hop/shared/client';
import { UsageError } from './errors.js';

const LINK_ID = /^lnk_[0-9A-Za-z]{16,}$/;

export const isLinkId = (ref: string) => LINK_ID.test(ref);

/**
 * A link named on the command line by id (`lnk_...`) or by slug (`hello`, or `go.acme.com/hello`
 * when several domains use it): a slug is looked up through the search, keeping only exact matches.
 */
export async function linkIdFor(api: HopClient, workspaceId: string, ref: string): Promise<string> {
  if (isLinkId(ref)) return ref;
  const slash = ref.lastIndexOf('/');
  const [domain, slug] = slash > 0 ? [ref.slice(0, slash).toLowerCase(), ref.slice(slash + 1)] : [undefined, ref];
  const found = new Map<string, string>();
  const { data } = await api.paginate('listLinks', { params: { workspaceId }, query: { q: slug, limit: 100, domain } }, { maxPages: 5 });
  for (const l of data) if (l.slug === slug && (!domain || l.domain === domain)) found.set(l.id, l.shortUrl);
  if (found.size === 1) return [...found.keys()][0];
  if (!found.size) throw new UsageError(`no link with slug "${ref}" in this workspace (see \`hop links list\`)`);
  throw new UsageError(`several links have the slug "${ref}": ${[...found].map(([id, url]) => `${id} (${url})`).join(', ')}; pass the id or domain/slug`);
}
