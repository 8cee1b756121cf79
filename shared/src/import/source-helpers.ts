// Small readers the importers share: values of loosely typed JSON, CSV columns by any of their names.
import type { ImportedLink } from './types.js';

export const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);
export const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.max(0, Math.trunc(n)) : null;
};

/** A time as ISO 8601 (UTC), or null when it is absent or not a time. */
export function isoTime(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  // "2024-01-31 12:00:00" (YOURLS, Bitly exports) has no zone: read as UTC.
  const t = Date.parse(/^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(s) ? `${s.replace(' ', 'T')}Z` : s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** `https://go.acme.com/launch` → { domain: 'go.acme.com', slug: 'launch' }; null when not a URL with a path. */
export function splitShortUrl(shortUrl: string): { domain: string; slug: string } | null {
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(shortUrl) ? shortUrl : `https://${shortUrl}`);
    const slug = decodeURIComponent(u.pathname.replace(/^\/+/, ''));
    return slug ? { domain: u.hostname.toLowerCase(), slug } : null;
  } catch {
    return null;
  }
}

/** A record with every optional part empty, for importers to fill. */
export const blankLink = (slug: string, domain: string | null, url: string): ImportedLink => ({
  slug, domain, url, title: null, description: null, tags: [], expiresAt: null, passwordProtected: false, createdAt: null, clicks: null, notCarried: [],
});

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A row's value under the first of `names` it has (compared without case, spaces or punctuation). */
export function column(row: Record<string, string>, ...names: string[]): string | null {
  const wanted = names.map(squash);
  for (const [k, v] of Object.entries(row)) if (wanted.includes(squash(k)) && v != null && v.trim() !== '') return v.trim();
  return null;
}

/** Whether the rows have a column under any of `names`. */
export const hasColumn = (rows: Record<string, string>[], ...names: string[]) =>
  rows.length > 0 && Object.keys(rows[0]).some((k) => names.map(squash).includes(squash(k)));

/** Fails with a message naming the export and the column it lacks. */
export function requireColumns(rows: Record<string, string>[], file: string, columns: string[][]): void {
  for (const names of columns) {
    if (!hasColumn(rows, ...names)) throw new Error(`not ${file}: no "${names[0]}" column (found: ${Object.keys(rows[0] ?? {}).join(', ') || 'none'})`);
  }
}

/** An answer that is not the documented shape: name the source and what was expected. */
export const unexpected = (source: string, what: string) => new Error(`${source} answered in an unexpected shape (${what})`);

/** `base` + `path` + query, the base's own path kept (self-hosted services may live under one). */
export function apiUrl(base: string, path: string, query: Record<string, string | number | undefined> = {}): string {
  const u = new URL(base.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.href;
}
