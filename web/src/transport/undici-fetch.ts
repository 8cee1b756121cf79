// The subset of undici's `request` that shared/src/client.ts calls, over the browser's fetch, so
// the dashboard runs the CLI's own typed client unchanged.
interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Headers a browser sets itself; sending them is refused or ignored. */
const BROWSER_OWNED = new Set(['user-agent']);

export async function request(url: string, options: RequestOptions = {}) {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.headers ?? {})) if (!BROWSER_OWNED.has(k.toLowerCase())) headers[k] = v;
  const res = await fetch(url, { method: options.method ?? 'GET', headers, body: options.body, credentials: 'omit' });
  const out: Record<string, string> = {};
  res.headers.forEach((value, key) => { out[key] = value; });
  return { statusCode: res.status, headers: out, body: { text: () => res.text() } };
}
