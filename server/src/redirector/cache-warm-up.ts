import type { RedirectLinks } from '../domain/links/redirect-links.js';
import type { LinkCache } from './link-cache.js';

/** A link changed while the warm-up read: it reads again, this many times at most. */
const ATTEMPTS = 3;

/**
 * Fills the redirect cache at start with the links visited most over the last days, at most
 * `maxLinks` (the memory bound: about a kilobyte a link), so that a restart under load does not
 * send every visit of the first seconds to the database. A link changed while they were read keeps
 * the whole read out of the cache (the cache's generation), and it is read again.
 */
export async function warmUpCache(deps: {
  cache: Pick<LinkCache, 'prime' | 'generation'>;
  links: Pick<RedirectLinks, 'mostVisited'>;
  maxLinks: number;
}): Promise<{ links: number; ms: number }> {
  const started = performance.now();
  let loaded = 0;
  for (let attempt = 0; attempt < ATTEMPTS && deps.maxLinks > 0 && loaded === 0; attempt++) {
    const since = deps.cache.generation();
    const links = await deps.links.mostVisited(deps.maxLinks);
    if (links.length === 0) break;
    loaded = deps.cache.prime(links, since);
  }
  return { links: loaded, ms: Math.round(performance.now() - started) };
}

/**
 * The warm-up as the server starts it: logged when done, waited for at most `waitMs` before the
 * server takes traffic (a slow database delays the start no longer; the rest loads meanwhile).
 * Answers what was loaded by then, or null when it was still loading (or failed: links then load
 * on their first visit).
 */
export async function startWarmUp(
  deps: Parameters<typeof warmUpCache>[0] & { waitMs: number; log: { info(o: object, m: string): void; error(o: object, m: string): void } },
): Promise<{ links: number; ms: number } | null> {
  const done = warmUpCache(deps).then(
    (w) => {
      deps.log.info(w, `redirect cache warmed: ${w.links} recently visited links loaded`);
      return w;
    },
    (err) => {
      deps.log.error({ err }, 'warming the redirect cache failed: links load on their first visit');
      return null;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<null>((resolve) => (timer = setTimeout(resolve, deps.waitMs, null)));
  try {
    return await Promise.race([done, waited]);
  } finally {
    clearTimeout(timer);
  }
}
