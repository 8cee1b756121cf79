// A stand-in for another shortener's API on 127.0.0.1, answering in that service's documented
// format (Bitly v4, Dub, Shlink REST v3, Kutt v2, YOURLS' yourls-api.php) with its pagination and
// its way of refusing a token, plus the failures an import must live through: a 429 with
// Retry-After, a 5xx, and a token that expires mid-way. Tests import from it; nothing reaches the
// real services.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ImportSourceName } from '@hop/shared/import';

export interface FixtureLink {
  slug: string;
  /** The source's short domain. */
  domain: string;
  url: string;
  title?: string;
  tags?: string[];
  createdAt: string;
  clicks: number;
  password?: boolean;
  expiresAt?: string;
}

export interface FixtureOptions {
  token: string;
  links: FixtureLink[];
  /** The nth list request (1-based) answers 429 with `Retry-After: 1`, once. */
  rateLimitAt?: number;
  /** The nth list request answers 503, once. */
  serverErrorAt?: number;
  /** From the nth list request on, the token is refused as expired. */
  expireAt?: number;
}

export interface FixtureRequest {
  at: number;
  path: string;
  status: number;
}

/** Links 1..n on `domain`, a day apart from 2020-01-01, with clicks 10 × i. */
export function fixtureLinks(n: number, prefix = 'imp', domain = 'sho.rt'): FixtureLink[] {
  return Array.from({ length: n }, (_, i) => ({
    slug: `${prefix}${i + 1}`,
    domain,
    url: `https://example.com/${prefix}/${i + 1}`,
    title: `Link ${i + 1}`,
    tags: i % 2 ? ['odd', 'Launch'] : ['even'],
    createdAt: new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString(),
    clicks: 10 * (i + 1),
  }));
}

type Handler = (url: URL, req: IncomingMessage, links: FixtureLink[]) => { status: number; body: unknown; list: boolean; authorised: boolean };

const PAGE = { bitly: 100, dub: 100, shlink: 100, kutt: 50, yourls: 100 } as const;
const bearer = (req: IncomingMessage, token: string) => req.headers.authorization === `Bearer ${token}`;

function handlers(token: string, base: () => string): Record<ImportSourceName, Handler> {
  return {
    bitly(url, req, links) {
      const authorised = bearer(req, token);
      if (!authorised) return { status: 403, body: { message: 'FORBIDDEN', resource: 'bitlinks', description: 'You are currently forbidden to access this resource.' }, list: false, authorised };
      if (url.pathname === '/v4/user') return { status: 200, body: { login: 'fixture', default_group_guid: 'Bfixture1' }, list: false, authorised };
      const summary = /^\/v4\/bitlinks\/(.+)\/clicks\/summary$/.exec(url.pathname);
      if (summary) {
        const id = decodeURIComponent(summary[1]);
        const link = links.find((l) => `${l.domain}/${l.slug}` === id);
        if (!link) return { status: 404, body: { message: 'NOT_FOUND' }, list: false, authorised };
        return { status: 200, body: { unit_reference: '2026-01-01T00:00:00+0000', total_clicks: link.clicks, units: -1, unit: 'day' }, list: false, authorised };
      }
      if (url.pathname !== '/v4/groups/Bfixture1/bitlinks') return { status: 404, body: { message: 'NOT_FOUND' }, list: false, authorised };
      const size = Number(url.searchParams.get('size') ?? 50);
      // search_after is opaque to clients; here it is the offset, base64-encoded.
      const from = url.searchParams.get('search_after') ? Number(Buffer.from(url.searchParams.get('search_after')!, 'base64').toString()) : 0;
      const page = links.slice(from, from + size);
      const after = from + size < links.length ? Buffer.from(String(from + size)).toString('base64') : '';
      return {
        status: 200,
        list: true,
        authorised,
        body: {
          links: page.map((l) => ({
            created_at: l.createdAt.replace('.000Z', '+0000'), id: `${l.domain}/${l.slug}`, link: `https://${l.domain}/${l.slug}`,
            custom_bitlinks: [], long_url: l.url, title: l.title ?? null, archived: false, created_by: 'fixture', client_id: 'c',
            tags: l.tags ?? [], deeplinks: [], references: { group: `${base()}/v4/groups/Bfixture1` },
          })),
          pagination: { prev: '', next: after ? `${base()}/v4/groups/Bfixture1/bitlinks?search_after=${after}&size=${size}` : '', size, page: 1, total: links.length, search_after: after },
        },
      };
    },
    dub(url, req, links) {
      const authorised = bearer(req, token);
      if (!authorised) return { status: 401, body: { error: { code: 'unauthorized', message: 'Unauthorized: Invalid API key.', doc_url: 'https://dub.co/docs/api-reference/errors#unauthorized' } }, list: false, authorised }; // no-egress-check: the service's own error body, recorded; never contacted
      if (url.pathname !== '/links') return { status: 404, body: { error: { code: 'not_found', message: 'Not found' } }, list: false, authorised };
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Math.min(100, Number(url.searchParams.get('pageSize') ?? 100));
      return {
        status: 200, list: true, authorised,
        body: links.slice((page - 1) * size, page * size).map((l, i) => ({
          id: `link_${page}_${i}`, domain: l.domain, key: l.slug, url: l.url, shortLink: `https://${l.domain}/${l.slug}`, archived: false,
          expiresAt: l.expiresAt ?? null, expiredUrl: null, password: l.password ? 'secret-at-dub' : null, proxy: false, title: l.title ?? null,
          description: null, image: null, ios: null, android: null, geo: null, tags: (l.tags ?? []).map((name, j) => ({ id: `tag_${j}`, name, color: 'blue' })),
          clicks: l.clicks, createdAt: l.createdAt, updatedAt: l.createdAt,
        })),
      };
    },
    shlink(url, req, links) {
      const authorised = req.headers['x-api-key'] === token;
      if (!authorised) return { status: 401, body: { type: 'https://shlink.io/api/error/invalid-api-key', title: 'Invalid API key', detail: 'Provided API key does not exist or is invalid.', status: 401 }, list: false, authorised }; // no-egress-check: the service's own error body, recorded; never contacted
      if (url.pathname !== '/rest/v3/short-urls') return { status: 404, body: { title: 'Not found', status: 404 }, list: false, authorised };
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('itemsPerPage') ?? 10);
      const data = links.slice((page - 1) * size, page * size);
      return {
        status: 200, list: true, authorised,
        body: {
          shortUrls: {
            data: data.map((l) => ({
              shortCode: l.slug, shortUrl: `https://${l.domain}/${l.slug}`, longUrl: l.url, deviceLongUrls: { android: null, ios: null, desktop: null },
              dateCreated: l.createdAt.replace('.000Z', '+00:00'), tags: l.tags ?? [], meta: { validSince: null, validUntil: l.expiresAt ?? null, maxVisits: null },
              domain: l.domain === 'sho.rt' ? null : l.domain, title: l.title ?? null, crawlable: false, forwardQuery: true,
              visitsSummary: { total: l.clicks + 3, nonBots: l.clicks, bots: 3 }, hasRedirectRules: false,
            })),
            pagination: { currentPage: page, pagesCount: Math.ceil(links.length / size), itemsPerPage: size, itemsInCurrentPage: data.length, totalItems: links.length },
          },
        },
      };
    },
    kutt(url, req, links) {
      const authorised = req.headers['x-api-key'] === token;
      if (!authorised) return { status: 401, body: { error: 'API key is not correct.' }, list: false, authorised };
      if (url.pathname !== '/api/v2/links') return { status: 404, body: { error: 'Not found.' }, list: false, authorised };
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const limit = Math.min(50, Number(url.searchParams.get('limit') ?? 10));
      return {
        status: 200, list: true, authorised,
        body: {
          limit, skip, total: links.length,
          data: links.slice(skip, skip + limit).map((l, i) => ({
            id: `00000000-0000-4000-8000-${String(skip + i).padStart(12, '0')}`, address: l.slug, banned: false, created_at: l.createdAt, updated_at: l.createdAt,
            target: l.url, description: l.title ?? null, password: Boolean(l.password), visit_count: l.clicks, link: `https://${l.domain}/${l.slug}`,
            ...(l.expiresAt ? { expire_in: l.expiresAt } : {}),
          })),
        },
      };
    },
    yourls(url, _req, links) {
      const ts = url.searchParams.get('timestamp') ?? '';
      const fresh = Math.abs(Date.now() / 1000 - Number(ts)) < 43_200;
      const authorised = fresh && url.searchParams.get('signature') === createHash('md5').update(ts + token).digest('hex');
      if (!authorised) return { status: 403, body: { message: 'Invalid username or password', errorCode: 403, callback: '' }, list: false, authorised };
      if (url.pathname !== '/yourls-api.php' || url.searchParams.get('action') !== 'stats' || url.searchParams.get('format') !== 'json') {
        return { status: 400, body: { errorCode: 400, message: 'Unknown or missing "action" parameter' }, list: false, authorised };
      }
      const start = Number(url.searchParams.get('start') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const page = links.slice(start, start + limit);
      const total = links.reduce((n, l) => n + l.clicks, 0);
      return {
        status: 200, list: true, authorised,
        body: {
          links: page.length ? Object.fromEntries(page.map((l, i) => [`link_${i + 1}`, {
            shorturl: `https://${l.domain}/${l.slug}`, url: l.url, title: l.title ?? '', timestamp: l.createdAt.slice(0, 19).replace('T', ' '), ip: '127.0.0.1', clicks: String(l.clicks),
          }])) : [],
          stats: { total_links: String(links.length), total_clicks: String(total) },
          statusCode: 200, message: 'success',
        },
      };
    },
  };
}

/** Starts the fixture of `service` on 127.0.0.1; `requests` records every request with its answer. */
export async function startShortenerFixture(service: ImportSourceName, opts: FixtureOptions) {
  const requests: FixtureRequest[] = [];
  let lists = 0;
  const done = { rateLimit: false, serverError: false };
  let url = '';
  const handle = handlers(opts.token, () => url)[service];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', url);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ at: Date.now(), path: `${u.pathname}${u.search}`, status });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const answer = handle(u, req, opts.links);
    if (answer.list && answer.authorised) {
      lists++;
      if (opts.expireAt && lists >= opts.expireAt) {
        return send(...expired(service));
      }
      if (opts.rateLimitAt === lists && !done.rateLimit) {
        done.rateLimit = true;
        lists--;
        return send(429, { message: 'RATE_LIMIT_EXCEEDED' }, { 'retry-after': '1' });
      }
      if (opts.serverErrorAt === lists && !done.serverError) {
        done.serverError = true;
        lists--;
        return send(503, { message: 'temporarily unavailable' });
      }
    }
    send(answer.status, answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** How each service says a token is no longer good. */
function expired(service: ImportSourceName): [number, unknown] {
  switch (service) {
    case 'bitly': return [403, { message: 'FORBIDDEN', resource: 'bitlinks', description: 'You are currently forbidden to access this resource.' }];
    case 'dub': return [401, { error: { code: 'unauthorized', message: 'Unauthorized: Access token expired.' } }];
    case 'shlink': return [401, { type: 'https://shlink.io/api/error/invalid-api-key', title: 'Invalid API key', detail: 'Provided API key does not exist or is invalid.', status: 401 }]; // no-egress-check: the service's own error body, recorded; never contacted
    case 'kutt': return [401, { error: 'API key is not correct.' }];
    case 'yourls': return [403, { message: 'Invalid username or password', errorCode: 403, callback: '' }];
  }
}

export const FIXTURE_PAGE_SIZE = PAGE;
