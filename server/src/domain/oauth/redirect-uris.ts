import { LOOPBACK_REDIRECT_HOSTS } from '@hop/shared';

/** Loopback hosts whose port is ignored when matching (RFC 8252 7.3: the port is chosen at run time). */
const LOOPBACK_HOSTS = new Set(LOOPBACK_REDIRECT_HOSTS);

function parse(uri: string): URL | null {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}

export const isLoopbackUri = (uri: string) => {
  const u = parse(uri);
  return Boolean(u && u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname));
};

/**
 * Whether `given` is one of `registered`: exactly, character for character, except that an http
 * loopback URI matches whatever its port (same host, path and query).
 */
export function redirectUriAllowed(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  const g = parse(given);
  if (!g || g.protocol !== 'http:' || !LOOPBACK_HOSTS.has(g.hostname) || g.username || g.password || g.hash) return false;
  return registered.some((r) => {
    const u = parse(r);
    return Boolean(u && isLoopbackUri(r) && u.hostname === g.hostname && u.pathname === g.pathname && u.search === g.search);
  });
}
