// Shlink REST API v3: GET /rest/v3/short-urls with the X-Api-Key header, `page` and `itemsPerPage`,
// answering {shortUrls: {data, pagination: {currentPage, pagesCount}}}. Its web client exports a
// CSV (createdAt, domain, shortCode, shortUrl, longUrl, title, tags separated by |, visits).
import { apiUrl, blankLink, column, isoTime, num, obj, requireColumns, splitShortUrl, str, unexpected } from '../source-helpers.js';
import type { ImportedLink, ImportSource, SourceRequest } from '../types.js';

const PAGE_SIZE = 100;

const request = (base: string, token: string, page: number): SourceRequest => ({
  url: apiUrl(base, '/rest/v3/short-urls', { page, itemsPerPage: PAGE_SIZE, orderBy: 'dateCreated-ASC' }),
  headers: { 'X-Api-Key': token, Accept: 'application/json' },
  what: `short URLs page ${page}`,
});

function fromShlink(raw: unknown): ImportedLink {
  const s = obj(raw);
  const slug = str(s.shortCode);
  const url = str(s.longUrl);
  if (!slug || !url) throw unexpected('Shlink', 'a short URL without shortCode or longUrl');
  // `domain` is null on the server's default domain; the short URL names it.
  const domain = str(s.domain) ?? splitShortUrl(str(s.shortUrl) ?? '')?.domain ?? null;
  const link = blankLink(slug, domain?.toLowerCase() ?? null, url);
  link.title = str(s.title);
  link.tags = Array.isArray(s.tags) ? s.tags.filter((t): t is string => typeof t === 'string') : [];
  link.createdAt = isoTime(s.dateCreated);
  const meta = obj(s.meta);
  link.expiresAt = isoTime(meta.validUntil);
  const summary = obj(s.visitsSummary);
  // Hop counts human clicks: Shlink's non-bot visits where it tells them apart.
  link.clicks = num(summary.nonBots) ?? num(summary.total) ?? num(s.visitsCount);
  const max = num(meta.maxVisits);
  if (max !== null) {
    const left = max - (num(summary.total) ?? num(s.visitsCount) ?? 0);
    if (left > 0) link.maxClicks = left;
    else link.notCarried.push(`max visits ${max} (all used)`);
  }
  if (isoTime(meta.validSince)) link.notCarried.push(`valid since ${String(meta.validSince)}`);
  const devices = obj(s.deviceLongUrls);
  link.ios = str(devices.ios);
  link.android = str(devices.android);
  if (str(devices.desktop)) link.notCarried.push('desktop long URL');
  if (s.forwardQuery === false) link.notCarried.push('query forwarding off (Hop forwards the visit\'s query)');
  if (s.hasRedirectRules === true) link.notCarried.push('redirect rules');
  return link;
}

export const shlink: ImportSource = {
  name: 'shlink',
  defaultUrl: null,
  tokenHelp: 'a Shlink API key (shlink api-key:generate)',
  api: {
    first: (base, token) => request(base, token, 1),
    page(body, _req, base, token) {
      const list = obj(obj(body).shortUrls);
      if (!Array.isArray(list.data)) throw unexpected('Shlink', 'no shortUrls.data list');
      const p = obj(list.pagination);
      const current = num(p.currentPage) ?? 1;
      const pages = num(p.pagesCount) ?? current;
      return { links: list.data.map(fromShlink), next: current < pages ? request(base, token, current + 1) : null, total: num(p.totalItems) ?? undefined };
    },
  },
  exportFile: {
    describe: 'the CSV the Shlink web client exports (createdAt, domain, shortCode, shortUrl, longUrl, title, tags, visits)',
    parse(rows) {
      requireColumns(rows, 'a Shlink export', [['shortCode'], ['longUrl']]);
      return rows.map((r, i) => {
        const slug = column(r, 'shortCode');
        const url = column(r, 'longUrl');
        if (!slug || !url) throw new Error(`row ${i + 2}: no shortCode or longUrl`);
        const domain = column(r, 'domain') ?? splitShortUrl(column(r, 'shortUrl') ?? '')?.domain ?? null;
        const link = blankLink(slug, domain?.toLowerCase() ?? null, url);
        link.title = column(r, 'title');
        link.tags = (column(r, 'tags') ?? '').split('|').map((t) => t.trim()).filter(Boolean);
        link.createdAt = isoTime(column(r, 'createdAt'));
        link.clicks = num(column(r, 'visits'));
        return link;
      });
    },
  },
};
