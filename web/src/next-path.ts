/** The `next` query parameter, only when it is a path of this app (never another site). */
export function nextPath(search: URLSearchParams, fallback = '/'): string {
  const next = search.get('next') ?? '';
  return next.startsWith('/') && !next.startsWith('//') ? next : fallback;
}

/** The server's OAuth pages that sign-up may send the browser back to, outside the app. */
const OAUTH_PAGES = ['/v1/oauth/authorize', '/v1/oauth/device'];
const BASE = 'http://hop.invalid';

/**
 * The `next` query parameter when it is one of the OAuth pages, as the browser would resolve it:
 * normalised first (dot segments, backslashes, encoded dots), then compared with the exact paths,
 * so `/v1/oauth/../../evil` is refused rather than sent to `/evil`. Null otherwise.
 */
export function oauthReturnPath(search: URLSearchParams): string | null {
  const next = search.get('next');
  if (!next?.startsWith('/')) return null;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return null;
  }
  return url.origin === BASE && OAUTH_PAGES.includes(url.pathname) ? url.pathname + url.search : null;
}
