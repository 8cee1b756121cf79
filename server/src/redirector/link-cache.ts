import { LRUCache } from 'lru-cache';
import type { RedirectLink, RedirectLinks } from '../domain/links/redirect-links.js';

export const LINK_CHANGED_CHANNEL = 'hop_link_changed';
const MAX_ENTRIES = 50_000;
// A safety net should a notification ever be missed; invalidation is normally immediate.
const TTL_MS = 5 * 60_000;

/**
 * A per-process cache of links by domain and slug, so a hot link costs no query. Every change to
 * a link's redirect fields fires NOTIFY (a trigger), and each process drops it on receipt; the
 * process that made the change drops it at once. A generation counter keeps a read that raced
 * with an invalidation from caching the old value.
 */
export function createLinkCache(deps: { links: RedirectLinks; defaultDomain: string }) {
  // The default short domain's links are keyed by slug alone, so a visit builds no key: a slug
  // holds no '/', which every other domain's key does.
  const keyOf = (domain: string, slug: string) => (domain === deps.defaultDomain ? slug : `${domain}/${slug}`);
  const keyById = new Map<string, string>();
  const byKey = new LRUCache<string, RedirectLink>({
    max: MAX_ENTRIES,
    ttl: TTL_MS,
    // Whatever takes an entry out (eviction, expiry, invalidation) forgets its id too.
    dispose: (link, key) => {
      if (keyById.get(link.id) === key) keyById.delete(link.id);
    },
  });
  let generation = 0;
  let hits = 0;
  let misses = 0;

  return {
    /** Without waiting: the cached link, or undefined when only the database can say. Counts nothing. */
    peek: (domain: string, slug: string) => byKey.get(keyOf(domain, slug)),
    /** A visit served from `peek` (the redirector's fast path), for the hit rate. */
    countHit() {
      hits++;
    },
    async get(domain: string, slug: string): Promise<RedirectLink | null> {
      const key = keyOf(domain, slug);
      const hit = byKey.get(key);
      if (hit) {
        hits++;
        return hit;
      }
      misses++;
      const started = generation;
      const link = await deps.links.find(domain, slug);
      if (link && generation === started) {
        byKey.set(key, link);
        keyById.set(link.id, key);
      }
      return link;
    },
    invalidate(linkId: string) {
      generation++;
      const key = keyById.get(linkId);
      if (key) byKey.delete(key);
      keyById.delete(linkId);
    },
    clear() {
      generation++;
      byKey.clear();
      keyById.clear();
    },
    stats: () => ({ size: byKey.size, hits, misses }),
  };
}

export type LinkCache = ReturnType<typeof createLinkCache>;
