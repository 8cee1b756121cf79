/**
 * Remembers a pure function of a string, for inputs that repeat a great deal (user agents: a few
 * hundred distinct ones make most of a day's visits). Bounded: when full it starts over, which
 * costs one miss per entry and never grows past `max` keys of at most `maxKeyLength` characters
 * (longer inputs, which a visitor may send on purpose, are computed every time).
 */
export function memoizeByString<T>(fn: (s: string) => T, max = 2000, maxKeyLength = 512): (s: string) => T {
  let seen = new Map<string, T>();
  return (s) => {
    if (s.length > maxKeyLength) return fn(s);
    let v = seen.get(s);
    if (v === undefined && !seen.has(s)) {
      v = fn(s);
      if (seen.size >= max) seen = new Map();
      seen.set(s, v);
    }
    return v as T;
  };
}
