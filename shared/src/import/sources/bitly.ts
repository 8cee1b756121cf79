// Bitly API v4: the user's default group (GET /v4/user), its bitlinks (GET /v4/groups/{guid}/bitlinks,
// paged with `search_after`), and each bitlink's lifetime clicks (GET /v4/bitlinks/{id}/clicks/summary
// with units=-1). A bitlink's custom bitlinks are short URLs of their own: each becomes a link.
import { apiUrl, blankLink, column, isoTime, num, obj, requireColumns, splitShortUrl, str, unexpected } from '../source-helpers.js';
import type { ImportedLink, ImportSource, SourceRequest } from '../types.js';

const PAGE_SIZE = 100;
const auth = (token: string) => ({ Authorization: `Bearer ${token}`, Accept: 'application/json' });
/** The bitlink id ("bit.ly/abc") of each primary record: custom bitlinks share its clicks and ask for none. */
const bitlinkIds = new WeakMap<ImportedLink, string>();

function fromBitlink(raw: unknown): ImportedLink[] {
  const b = obj(raw);
  const id = str(b.id) ?? str(b.link);
  const where = id ? splitShortUrl(id) : null;
  const url = str(b.long_url);
  if (!where || !url) throw unexpected('Bitly', 'a bitlink without id or long_url');
  const link = blankLink(where.slug, where.domain, url);
  link.title = str(b.title);
  link.tags = Array.isArray(b.tags) ? b.tags.filter((t): t is string => typeof t === 'string') : [];
  link.createdAt = isoTime(b.created_at);
  link.expiresAt = isoTime(b.expiration_at);
  if (b.archived === true) link.notCarried.push('archived at Bitly (imported as an active link)');
  if (Array.isArray(b.deeplinks) && b.deeplinks.length) link.notCarried.push(`${b.deeplinks.length} deep link(s)`);
  bitlinkIds.set(link, `${where.domain}/${where.slug}`);
  const custom = (Array.isArray(b.custom_bitlinks) ? b.custom_bitlinks : []).flatMap((c) => {
    const at = typeof c === 'string' ? splitShortUrl(c) : null;
    if (!at) return [];
    const extra = { ...link, slug: at.slug, domain: at.domain, tags: [...link.tags], notCarried: [...link.notCarried, `clicks counted on ${where.domain}/${where.slug}`] };
    return [extra];
  });
  return [link, ...custom];
}

const bitlinksPage = (base: string, token: string, guid: string, searchAfter?: string): SourceRequest => ({
  url: apiUrl(base, `/v4/groups/${encodeURIComponent(guid)}/bitlinks`, { size: PAGE_SIZE, search_after: searchAfter }),
  headers: auth(token),
  what: 'bitlinks',
});

export const bitly: ImportSource = {
  name: 'bitly',
  defaultUrl: 'https://api-ssl.bitly.com',
  tokenHelp: 'a Bitly access token (Settings → API)',
  api: {
    first: (base, token) => ({ url: apiUrl(base, '/v4/user'), headers: auth(token), what: 'user' }),
    page(body, request, base, token) {
      const b = obj(body);
      if (request.what === 'user') {
        const guid = str(b.default_group_guid);
        if (!guid) throw unexpected('Bitly', 'GET /v4/user without default_group_guid');
        return { links: [], next: bitlinksPage(base, token, guid) };
      }
      if (!Array.isArray(b.links)) throw unexpected('Bitly', 'no "links" list');
      const p = obj(b.pagination);
      // The next page by its search_after cursor, on our base URL: `pagination.next` is a full URL
      // that would send the token wherever it points.
      let after = str(p.search_after);
      if (!after && str(p.next)) {
        try {
          after = new URL(String(p.next)).searchParams.get('search_after');
        } catch {
          after = null;
        }
      }
      const guid = decodeURIComponent(new URL(request.url).pathname.split('/').slice(-2)[0]);
      return { links: b.links.flatMap(fromBitlink), next: after && b.links.length ? bitlinksPage(base, token, guid, after) : null, total: num(p.total) ?? undefined };
    },
    detail: {
      request(link, base, token) {
        const id = bitlinkIds.get(link);
        return id ? { url: apiUrl(base, `/v4/bitlinks/${encodeURIComponent(id)}/clicks/summary`, { unit: 'day', units: -1 }), headers: auth(token), what: `clicks of ${id}` } : null;
      },
      apply: (link, body) => ({ ...link, clicks: num(obj(body).total_clicks) }),
    },
  },
  exportFile: {
    describe: 'the CSV of Bitly\'s link export (columns Bitlink, Long URL, Title, Tags, Created, Clicks)',
    parse(rows) {
      requireColumns(rows, 'a Bitly export', [['Bitlink', 'link', 'Short link', 'id'], ['Long URL', 'long_url', 'Destination URL']]);
      return rows.map((r, i) => {
        const at = splitShortUrl(column(r, 'Bitlink', 'link', 'Short link', 'id') ?? '');
        const url = column(r, 'Long URL', 'long_url', 'Destination URL');
        if (!at || !url) throw new Error(`row ${i + 2}: no bitlink or long URL`);
        const link = blankLink(at.slug, at.domain, url);
        link.title = column(r, 'Title');
        link.tags = (column(r, 'Tags') ?? '').split(/[,|;]/).map((t) => t.trim()).filter(Boolean);
        link.createdAt = isoTime(column(r, 'Created', 'Date Created', 'created_at', 'Created at'));
        link.clicks = num(column(r, 'Clicks', 'Total Clicks', 'Engagements'));
        return link;
      });
    },
  },
};
