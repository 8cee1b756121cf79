import { LRUCache } from 'lru-cache';

/**
 * Remembers a pure function of a string, for inputs that repeat a great deal (user agents: a few
 * hundred distinct ones make most of a day's visits), in an LRU of at most `max` keys of at most
 * `maxKeyLength` characters (longer inputs, which a visitor may send on purpose, are computed
 * every time and never kept).
 */
export function memoizeByString<T>(fn: (s: string) => T, max = 2000, maxKeyLength = 512): (s: string) => T {
  // Boxed: the cache holds no null or undefined, which are answers here (no referrer domain).
  const seen = new LRUCache<string, { v: T }>({ max });
  return (s) => {
    if (s.length > maxKeyLength) return fn(s);
    let hit = seen.get(s);
    if (hit === undefined) {
      hit = { v: fn(s) };
      seen.set(s, hit);
    }
    return hit.v;
  };
}
