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
export function createLinkCache(deps: { links: RedirectLinks; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const byKey = new Map<string, { link: RedirectLink; at: number }>();
  const keyById = new Map<string, string>();
  let generation = 0;
  let hits = 0;
  let misses = 0;

  function invalidate(linkId: string) {
    generation++;
    const key = keyById.get(linkId);
    if (key) byKey.delete(key);
    keyById.delete(linkId);
  }

  /** A cached link, or undefined on a miss. Counts nothing: callers count what they serve. */
  function peek(key: string): RedirectLink | undefined {
    const hit = byKey.get(key);
    if (!hit || now() - hit.at >= TTL_MS) return undefined;
    // Refresh its place: the Map's insertion order is the LRU order.
    byKey.delete(key);
    byKey.set(key, hit);
    return hit.link;
  }

  return {
    /** Without waiting: the cached link, or undefined when only the database can say. */
    peek: (domain: string, slug: string) => peek(`${domain}/${slug}`),
    /** A visit served from `peek` (the redirector's fast path), for the hit rate. */
    countHit() {
      hits++;
    },
    async get(domain: string, slug: string): Promise<RedirectLink | null> {
      const key = `${domain}/${slug}`;
      const hit = peek(key);
      if (hit) {
        hits++;
        return hit;
      }
      misses++;
      const started = generation;
      const link = await deps.links.find(domain, slug);
      if (link && generation === started) {
        byKey.set(key, { link, at: now() });
        keyById.set(link.id, key);
        if (byKey.size > MAX_ENTRIES) {
          const [oldestKey, oldest] = byKey.entries().next().value!;
          byKey.delete(oldestKey);
          keyById.delete(oldest.link.id);
        }
      }
      return link;
    },
    invalidate,
    clear() {
      generation++;
      byKey.clear();
      keyById.clear();
    },
    stats: () => ({ size: byKey.size, hits, misses }),
  };
}

export type LinkCache = ReturnType<typeof createLinkCache>;
