/** The `next` query parameter, only when it is a path of this app (never another site). */
export function nextPath(search: URLSearchParams, fallback = '/'): string {
  const next = search.get('next') ?? '';
  return next.startsWith('/') && !next.startsWith('//') ? next : fallback;
}
