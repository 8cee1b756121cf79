/**
 * Which URLs may open an app from a smart link's `ios` and `android` fields: an allowlist, since a
 * browser follows far more schemes than links should (view-source:, jar:, filesystem:, ms-msdt:,
 * ...). Allowed:
 *
 * - `http:` and `https:` URLs with a host (store pages, universal and app links);
 * - an app's own scheme, written as apps register them: `name://...` (`myapp://open/42`,
 *   `market://details?id=...`), where the name is not a scheme the browser or the system handles
 *   itself (`javascript`, `data`, `file`, `view-source`, `chrome`, any `ms-` handler, any name
 *   holding `script`, ...);
 * - Android's `intent:` URL, when its `S.browser_fallback_url` (where the browser goes without
 *   the app) is http(s) and its `scheme=` is itself allowed.
 *
 * The one place that decides; the schema and the redirector both ask it.
 */

import { isHttpUrl } from './urls.js';

/** Schemes that browsers or operating systems handle themselves: never an app's own. */
const SYSTEM_SCHEMES = new Set([
  'javascript', 'vbscript', 'livescript', 'data', 'file', 'blob', 'about', 'view-source', 'jar', 'filesystem',
  'chrome', 'chrome-extension', 'edge', 'opera', 'brave', 'moz-extension', 'resource', 'wyciwyg', 'feed',
  'search-ms', 'shell', 'res', 'its', 'mk', 'mhtml', 'hcp', 'vscode', 'steam', 'content', 'android-app',
]);

const SCHEME = /^([a-z][a-z0-9+.-]{0,63}):/i;

/** An app's own scheme name: not the browser's or the system's. */
function isAppScheme(name: string): boolean {
  const n = name.toLowerCase();
  return !SYSTEM_SCHEMES.has(n) && !n.includes('script') && !n.startsWith('ms-') && !n.startsWith('x-') && n !== 'intent';
}

/** `intent://host/path#Intent;scheme=...;package=...;S.browser_fallback_url=...;end` (Chrome on Android). */
function intentProblem(text: string): string | null {
  const hash = text.indexOf('#Intent;');
  if (hash < 0 || !/;end;?$/.test(text)) return 'an intent: URL must end with #Intent;...;end';
  for (const part of text.slice(hash + '#Intent;'.length).split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq);
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1));
    } catch {
      return `its ${key} is not percent-encoded properly`;
    }
    if (key === 'S.browser_fallback_url' && !isHttpUrl(value)) return 'its S.browser_fallback_url must be an http(s) URL';
    if (key === 'scheme' && !/^https?$/i.test(value) && !isAppScheme(value)) return `its scheme ${value} is not an app's own`;
  }
  return null;
}

/** Why `text` may not be an app link, or null when it may. */
export function appLinkProblem(text: string): string | null {
  const scheme = SCHEME.exec(text)?.[1].toLowerCase();
  if (!scheme) return 'must start with a scheme (https:, myapp:)';
  if (scheme === 'http' || scheme === 'https') return isHttpUrl(text) ? null : 'must be an absolute http(s) URL with a host';
  if (scheme === 'intent') return intentProblem(text);
  if (!isAppScheme(scheme)) return `the ${scheme}: scheme is handled by the browser or the system, not an app`;
  if (!text.slice(scheme.length + 1).startsWith('//')) return `an app link is written ${scheme}://...`;
  return null;
}

export const isAllowedAppLink = (text: string) => appLinkProblem(text) === null;
