// Dub: GET /links (workspace API key as a bearer token), `page` and `pageSize` (at most 100), an
// array per page; a shorter page is the last. The export (Links → Export) is a CSV.
import { apiUrl, blankLink, column, isoTime, num, obj, requireColumns, splitShortUrl, str, unexpected } from '../source-helpers.js';
import type { ImportedLink, ImportSource, SourceRequest } from '../types.js';

const PAGE_SIZE = 100;

const request = (base: string, token: string, page: number): SourceRequest => ({
  url: apiUrl(base, '/links', { page, pageSize: PAGE_SIZE, sortBy: 'createdAt', sortOrder: 'asc' }),
  headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
  what: `links page ${page}`,
});

function fromDub(raw: unknown): ImportedLink {
  const l = obj(raw);
  const domain = str(l.domain);
  const slug = str(l.key);
  const url = str(l.url);
  if (!slug || !url) throw unexpected('Dub', 'a link without key or url');
  const link = blankLink(slug, domain?.toLowerCase() ?? null, url);
  link.title = str(l.title);
  link.description = str(l.description);
  const tags = Array.isArray(l.tags) ? l.tags : [];
  link.tags = tags.map((t) => (typeof t === 'string' ? t : str(obj(t).name))).filter((t): t is string => Boolean(t));
  link.expiresAt = isoTime(l.expiresAt);
  link.passwordProtected = Boolean(l.password);
  link.createdAt = isoTime(l.createdAt);
  link.clicks = num(l.clicks);
  link.ios = str(l.ios);
  link.android = str(l.android);
  if (str(l.expiredUrl)) link.notCarried.push(`expired URL ${String(l.expiredUrl)} (set it with hop links update --expired-url)`);
  if (l.geo && typeof l.geo === 'object' && Object.keys(l.geo).length) link.notCarried.push('geo targeting');
  if (l.archived === true) link.notCarried.push('archived at Dub (imported as an active link)');
  if (l.proxy === true) link.notCarried.push('custom link preview');
  return link;
}

export const dub: ImportSource = {
  name: 'dub',
  defaultUrl: 'https://api.dub.co',
  tokenHelp: 'a Dub workspace API key (Settings → API Keys)',
  api: {
    first: (base, token) => request(base, token, 1),
    page(body, req, base, token) {
      if (!Array.isArray(body)) throw unexpected('Dub', 'GET /links did not answer a list');
      const page = Number(new URL(req.url).searchParams.get('page') ?? 1);
      return { links: body.map(fromDub), next: body.length === PAGE_SIZE ? request(base, token, page + 1) : null };
    },
  },
  exportFile: {
    describe: 'the CSV of Dub\'s link export (columns Short link or Domain and Key, Destination URL, Title, Tags, Clicks, Created at)',
    parse(rows) {
      requireColumns(rows, 'a Dub export', [['Destination URL', 'url']]);
      return rows.map((r, i) => {
        const short = column(r, 'Short link', 'link', 'shortLink');
        const at = short ? splitShortUrl(short) : column(r, 'Key') ? { domain: column(r, 'Domain')?.toLowerCase() ?? null, slug: column(r, 'Key')! } : null;
        const url = column(r, 'Destination URL', 'url');
        if (!at || !url) throw new Error(`row ${i + 2}: no short link (or domain and key) or destination URL`);
        const link = blankLink(at.slug, at.domain, url);
        link.title = column(r, 'Title');
        link.description = column(r, 'Description');
        link.tags = (column(r, 'Tags') ?? '').split(/[,|;]/).map((t) => t.trim()).filter(Boolean);
        link.clicks = num(column(r, 'Clicks'));
        link.createdAt = isoTime(column(r, 'Created at', 'createdAt'));
        link.expiresAt = isoTime(column(r, 'Expires at', 'expiresAt'));
        return link;
      });
    },
  },
};
