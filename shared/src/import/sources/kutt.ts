// Kutt API v2: GET /api/v2/links with the X-API-KEY header, `skip` and `limit`, answering
// {limit, skip, total, data}. Kutt offers no export file.
import { apiUrl, blankLink, isoTime, num, obj, splitShortUrl, str, unexpected } from '../source-helpers.js';
import type { ImportedLink, ImportSource, SourceRequest } from '../types.js';

const PAGE_SIZE = 50;

const request = (base: string, token: string, skip: number): SourceRequest => ({
  url: apiUrl(base, '/api/v2/links', { skip, limit: PAGE_SIZE, all: 'false' }),
  headers: { 'X-API-KEY': token, Accept: 'application/json' },
  what: `links from ${skip}`,
});

function fromKutt(raw: unknown): ImportedLink {
  const l = obj(raw);
  const slug = str(l.address);
  const url = str(l.target);
  if (!slug || !url) throw unexpected('Kutt', 'a link without address or target');
  const link = blankLink(slug, splitShortUrl(str(l.link) ?? '')?.domain ?? null, url);
  link.description = str(l.description);
  link.passwordProtected = l.password === true;
  link.createdAt = isoTime(l.created_at);
  link.expiresAt = isoTime(l.expire_in);
  link.clicks = num(l.visit_count);
  if (l.banned === true) link.notCarried.push('banned at Kutt (imported as an active link)');
  return link;
}

export const kutt: ImportSource = {
  name: 'kutt',
  defaultUrl: 'https://kutt.it',
  tokenHelp: 'a Kutt API key (Settings → API)',
  api: {
    first: (base, token) => request(base, token, 0),
    page(body, req, base, token) {
      const b = obj(body);
      if (!Array.isArray(b.data)) throw unexpected('Kutt', 'no "data" list');
      const skip = Number(new URL(req.url).searchParams.get('skip') ?? 0);
      const total = num(b.total);
      const next = skip + b.data.length;
      const more = b.data.length > 0 && (total === null ? b.data.length === PAGE_SIZE : next < total);
      return { links: b.data.map(fromKutt), next: more ? request(base, token, next) : null, total: total ?? undefined };
    },
  },
};
