// The typed client's transport over the browser's fetch, so the dashboard runs the CLI's own client.
import type { Send } from '@hop/shared/client-core';

/** Headers a browser sets itself; sending them is refused or ignored. */
const BROWSER_OWNED = new Set(['user-agent']);

export const fetchSend: Send = async (url, method, headers, payload) => {
  const own: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (!BROWSER_OWNED.has(k.toLowerCase())) own[k] = v;
  const res = await fetch(url, { method, headers: own, body: payload, credentials: 'omit' });
  const out: Record<string, string> = {};
  res.headers.forEach((value, key) => { out[key] = value; });
  return { status: res.status, headers: out, text: await res.text() };
};
