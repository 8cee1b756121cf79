import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

export const DOMAIN_CHANGED_CHANNEL = 'hop_domain_changed';
// A safety net should a notification ever be missed; changes normally reload the set at once.
const TTL_MS = 30_000;

/**
 * Which domain a visit's slug belongs to, chosen by its Host (docs/api.md, The redirector): a verified custom
 * domain serves its own links; any other host (the default short domain, and in development the
 * API host) serves the default short domain's. The verified names are one small set per process,
 * reloaded when a domain changes (NOTIFY from a trigger, or at once in the process that changed
 * it) and at least every 30 seconds, so a visit costs no query.
 */
export function createHostDomains(deps: { shortDomain: string; load: () => Promise<string[]>; now?: () => number }) {
  const now = deps.now ?? Date.now;
  let names = new Set<string>();
  let loadedAt = -Infinity;
  let generation = 0;
  let loading: Promise<void> | null = null;
  const defaultHost = deps.shortDomain.split(':')[0];

  function reload(): Promise<void> {
    loading ??= (async () => {
      const started = generation;
      try {
        const fresh = new Set(await deps.load());
        names = fresh;
        // A change during the load may be missing from it: stay stale so the next visit loads again.
        loadedAt = generation === started ? now() : -Infinity;
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  /** Which domain a host name serves, without waiting; undefined while the set needs a reload. */
  const normal = (hostname: string) => hostname.toLowerCase().replace(/\.$/, '');
  // The last host name found to be the default short domain's by its shape alone: nearly every
  // visit names the same host, and this answer depends on nothing the set holds.
  let lastDefault: string | undefined;
  function domainForHost(hostname: string): string | undefined {
    if (hostname === lastDefault) return deps.shortDomain;
    const host = normal(hostname);
    // The default short domain's host needs no set at all: the common case stays free.
    if (!host.includes('.') || host === defaultHost || isIP(host)) {
      lastDefault = hostname;
      return deps.shortDomain;
    }
    if (now() - loadedAt >= TTL_MS) return undefined;
    return names.has(host) ? host : deps.shortDomain;
  }

  return {
    domainForHost,
    async domainFor(req: FastifyRequest): Promise<string> {
      const hostname = req.hostname ?? '';
      const known = domainForHost(hostname);
      if (known !== undefined) return known;
      await reload();
      return names.has(normal(hostname)) ? normal(hostname) : deps.shortDomain;
    },
    invalidate() {
      generation++;
      loadedAt = -Infinity;
    },
    stats: () => ({ size: names.size, loadedAt }),
  };
}

export type HostDomains = ReturnType<typeof createHostDomains>;
