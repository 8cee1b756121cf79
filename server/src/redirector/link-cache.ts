import { LRUCache } from 'lru-cache';
import type { RedirectLink } from '../domain/links/redirect-links.js';

export const LINK_CHANGED_CHANNEL = 'hop_link_changed';
const MAX_ENTRIES = 50_000;
// A safety net should a notification ever be missed; invalidation is normally immediate. An entry
// past it is still served while it is read again in the background: had it been dropped, every
// link warmed together would miss together five minutes later, and every visit would wait for the
// database at once (under load, behind a busy one: the cause of a two-minute stall).
const TTL_MS = 5 * 60_000;

/**
 * A per-process cache of links by domain and slug, so a hot link costs no query. Every change to
 * a link's redirect fields fires NOTIFY (a trigger), and each process drops it on receipt; the
 * process that made the change drops it at once. A generation counter keeps a read that raced
 * with an invalidation from caching the old value.
 */
export function createLinkCache(deps: {
  links: { find(domain: string, slug: string): Promise<RedirectLink | null> };
  defaultDomain: string;
  /** Default TTL_MS. */
  ttlMs?: number;
}) {
  // The default short domain's links are keyed by slug alone, so a visit builds no key: a slug
  // holds no '/', which every other domain's key does.
  const keyOf = (domain: string, slug: string) => (domain === deps.defaultDomain ? slug : `${domain}/${slug}`);
  // Every key a link is cached under: after a rename, another process may cache the new slug
  // before it hears of the change, while the old one is still cached. Invalidation drops both.
  const keysById = new Map<string, Set<string>>();
  const byKey = new LRUCache<string, RedirectLink>({
    max: MAX_ENTRIES,
    ttl: deps.ttlMs ?? TTL_MS,
    allowStale: true,
    noDeleteOnStaleGet: true,
    // Whatever takes an entry out (eviction, expiry, invalidation, replacement) forgets its key too.
    dispose: (link, key) => {
      const keys = keysById.get(link.id);
      if (!keys) return;
      keys.delete(key);
      if (keys.size === 0) keysById.delete(link.id);
    },
  });
  let generation = 0;
  let hits = 0;
  let misses = 0;
  const refreshing = new Set<string>();

  function store(key: string, link: RedirectLink) {
    byKey.set(key, link);
    const keys = keysById.get(link.id);
    if (keys) keys.add(key);
    else keysById.set(link.id, new Set([key]));
  }

  /** An entry past its TTL, still served: read again without anyone waiting for it. */
  function refreshIfStale(domain: string, key: string, link: RedirectLink) {
    if (byKey.getRemainingTTL(key) > 0 || refreshing.has(key)) return;
    refreshing.add(key);
    const started = generation;
    deps.links.find(domain, link.slug).then((fresh) => {
      if (generation !== started) return;
      if (fresh) store(key, fresh);
      else byKey.delete(key);
    }, () => {}).finally(() => refreshing.delete(key));
  }

  return {
    /** Without waiting: the cached link, or undefined when only the database can say. Counts nothing. */
    peek(domain: string, slug: string): RedirectLink | undefined {
      const key = keyOf(domain, slug);
      const link = byKey.get(key);
      if (link) refreshIfStale(domain, key, link);
      return link;
    },
    /** A visit served from `peek` (the redirector's fast path), for the hit rate. */
    countHit() {
      hits++;
    },
    async get(domain: string, slug: string): Promise<RedirectLink | null> {
      const key = keyOf(domain, slug);
      const hit = byKey.get(key);
      if (hit) {
        hits++;
        refreshIfStale(domain, key, hit);
        return hit;
      }
      misses++;
      const started = generation;
      const link = await deps.links.find(domain, slug);
      if (link && generation === started) store(key, link);
      return link;
    },
    /**
     * Links loaded ahead of their first visit (the warm-up). `since` is `generation()` read before
     * they were: a change in between keeps them out, as it does a lookup's answer.
     */
    prime(links: RedirectLink[], since: number) {
      if (generation !== since) return 0;
      for (const link of links) store(keyOf(link.domain, link.slug), link);
      return links.length;
    },
    generation: () => generation,
    invalidate(linkId: string) {
      generation++;
      const keys = keysById.get(linkId);
      keysById.delete(linkId);
      if (keys) for (const key of keys) byKey.delete(key);
    },
    clear() {
      generation++;
      byKey.clear();
      keysById.clear();
    },
    stats: () => ({ size: byKey.size, hits, misses }),
  };
}

export type LinkCache = ReturnType<typeof createLinkCache>;
