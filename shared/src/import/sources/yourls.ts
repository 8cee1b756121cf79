// YOURLS: `yourls-api.php?action=stats&filter=last` pages with `limit` and `start` (format=json),
// signed the passwordless way: `timestamp` and `signature` = md5(timestamp + token), which YOURLS
// accepts for 12 hours, so every request is signed anew. YOURLS has no export file of its own.
import { blankLink, isoTime, num, obj, splitShortUrl, str, unexpected } from '../source-helpers.js';
import type { ImportedLink, ImportSource, SourceContext, SourceRequest } from '../types.js';

const PAGE_SIZE = 100;

/** The API script: the base when it names it, else yourls-api.php at its root. */
const endpoint = (base: string) => (/\.php$/i.test(new URL(base).pathname) ? base : `${base.replace(/\/+$/, '')}/yourls-api.php`);

function request(base: string, token: string, start: number, ctx: SourceContext): SourceRequest {
  const u = new URL(endpoint(base));
  const timestamp = String(Math.floor(ctx.now().getTime() / 1000));
  const q = { action: 'stats', filter: 'last', limit: String(PAGE_SIZE), start: String(start), format: 'json', timestamp, signature: ctx.md5(timestamp + token) };
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
  return { url: u.href, headers: { Accept: 'application/json' }, what: `links from ${start}` };
}

function fromYourls(raw: unknown): ImportedLink {
  const l = obj(raw);
  const at = splitShortUrl(str(l.shorturl) ?? '');
  const url = str(l.url);
  if (!at || !url) throw unexpected('YOURLS', 'a link without shorturl or url');
  const link = blankLink(at.slug, at.domain, url);
  link.title = str(l.title);
  link.createdAt = isoTime(l.timestamp);
  link.clicks = num(l.clicks);
  return link;
}

export const yourls: ImportSource = {
  name: 'yourls',
  defaultUrl: null,
  tokenHelp: 'the YOURLS signature token (Tools → Secure passwordless API call)',
  api: {
    first: (base, token, ctx) => request(base, token, 0, ctx),
    page(body, req, base, token, ctx) {
      const b = obj(body);
      if (b.links === undefined && b.stats === undefined) throw unexpected('YOURLS', 'no "links" in the stats answer');
      // PHP writes an empty list as [] and a filled one as {link_1: ..., link_2: ...}.
      const list = Array.isArray(b.links) ? b.links : Object.values(obj(b.links));
      const start = Number(new URL(req.url).searchParams.get('start') ?? 0);
      const total = num(obj(b.stats).total_links);
      const next = start + list.length;
      const more = list.length > 0 && (total === null ? list.length === PAGE_SIZE : next < total);
      return { links: list.map(fromYourls), next: more ? request(base, token, next, ctx) : null, total: total ?? undefined };
    },
  },
};
