// The typed client's transport (shared/src/http-send.ts) over the browser's fetch, so the dashboard
// runs the CLI's own client unchanged.
import type { SentResponse } from '../../../shared/src/http-send.js';

/** Headers a browser sets itself; sending them is refused or ignored. */
const BROWSER_OWNED = new Set(['user-agent']);

export async function send(url: string, method: string, headers: Record<string, string>, payload?: string): Promise<SentResponse> {
  const own: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (!BROWSER_OWNED.has(k.toLowerCase())) own[k] = v;
  const res = await fetch(url, { method, headers: own, body: payload, credentials: 'omit' });
  const out: Record<string, string> = {};
  res.headers.forEach((value, key) => { out[key] = value; });
  return { status: res.status, headers: out, text: await res.text() };
}
