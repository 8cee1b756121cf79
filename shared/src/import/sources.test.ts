// Each importer reads its service's documented answer: the fields that carry, the next page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { SOURCES } from './sources/index.js';

const ctx = { now: () => new Date('2026-01-01T00:00:00Z'), md5: (s: string) => createHash('md5').update(s).digest('hex') };

test('bitly: the group, then bitlinks by search_after on our own base, custom bitlinks as links of their own, clicks per bitlink', () => {
  const { api } = SOURCES.bitly;
  const first = api.first('https://api.test', 'T', ctx);
  assert.equal(first.url, 'https://api.test/v4/user');
  assert.equal(first.headers.Authorization, 'Bearer T');
  const toLinks = api.page({ default_group_guid: 'Bg1' }, first, 'https://api.test', 'T', ctx).next!;
  assert.equal(toLinks.url, 'https://api.test/v4/groups/Bg1/bitlinks?size=100');
  const page = api.page({
    links: [{ id: 'bit.ly/abc', long_url: 'https://example.com/', title: 'A', tags: ['x'], created_at: '2020-01-02T03:04:05+0000', archived: true, custom_bitlinks: ['https://go.acme.test/launch'] }],
    pagination: { next: 'https://elsewhere.test/v4/groups/Bg1/bitlinks?search_after=CUR', search_after: '', total: 2 },
  }, toLinks, 'https://api.test', 'T', ctx);
  assert.equal(page.next!.url, 'https://api.test/v4/groups/Bg1/bitlinks?size=100&search_after=CUR', 'the token never follows pagination.next elsewhere');
  assert.deepEqual(page.links.map((l) => `${l.domain}/${l.slug}`), ['bit.ly/abc', 'go.acme.test/launch']);
  assert.equal(page.links[0].createdAt, '2020-01-02T03:04:05.000Z');
  assert.match(page.links[0].notCarried[0], /archived/);
  const clicks = api.detail!.request(page.links[0], 'https://api.test', 'T')!;
  assert.equal(clicks.url, 'https://api.test/v4/bitlinks/bit.ly%2Fabc/clicks/summary?unit=day&units=-1');
  assert.equal(api.detail!.request(page.links[1], 'https://api.test', 'T'), null, 'a custom bitlink shares the clicks');
  assert.equal(api.detail!.apply(page.links[0], { total_clicks: 42 }).clicks, 42);
});

test('dub, shlink, kutt: pages end where the service says', () => {
  const dub = SOURCES.dub.api;
  const d1 = dub.first('https://api.dub.test', 'K', ctx);
  const full = Array.from({ length: 100 }, (_, i) => ({ domain: 'dub.sh', key: `k${i}`, url: 'https://example.com/', tags: [{ name: 'T' }], password: i === 0 ? 'x' : null, clicks: 3 }));
  const p1 = dub.page(full, d1, 'https://api.dub.test', 'K', ctx);
  assert.equal(new URL(p1.next!.url).searchParams.get('page'), '2');
  assert.deepEqual([p1.links[0].passwordProtected, p1.links[0].tags, p1.links[1].passwordProtected], [true, ['T'], false]);
  assert.equal(dub.page(full.slice(0, 3), p1.next!, 'https://api.dub.test', 'K', ctx).next, null);

  const sh = SOURCES.shlink.api;
  const s1 = sh.first('https://s.test/base', 'K', ctx);
  assert.equal(s1.url, 'https://s.test/base/rest/v3/short-urls?page=1&itemsPerPage=100&orderBy=dateCreated-ASC');
  const sp = sh.page({ shortUrls: { data: [{ shortCode: 'a', shortUrl: 'https://s.test/a', longUrl: 'https://example.com/', domain: null, tags: [], meta: { maxVisits: 10, validSince: '2020-01-01T00:00:00+00:00' }, visitsSummary: { total: 4, nonBots: 3, bots: 1 }, deviceLongUrls: { ios: 'https://apps.example.com/x', desktop: 'https://example.com/d' } }], pagination: { currentPage: 1, pagesCount: 1 } } }, s1, 'https://s.test/base', 'K', ctx);
  assert.equal(sp.next, null);
  assert.deepEqual([sp.links[0].domain, sp.links[0].clicks, sp.links[0].maxClicks, sp.links[0].ios], ['s.test', 3, 6, 'https://apps.example.com/x']);
  assert.equal(sp.links[0].notCarried.length, 2);

  const ku = SOURCES.kutt.api;
  const k1 = ku.first('https://kutt.test', 'K', ctx);
  const kp = ku.page({ limit: 50, skip: 0, total: 51, data: Array.from({ length: 50 }, (_, i) => ({ address: `a${i}`, target: 'https://example.com/', link: 'https://kutt.test/a', password: i === 1, visit_count: 2 })) }, k1, 'https://kutt.test', 'K', ctx);
  assert.equal(new URL(kp.next!.url).searchParams.get('skip'), '50');
  assert.equal(kp.links[1].passwordProtected, true);
});

test('yourls: every request signed anew with md5(timestamp + token); PHP\'s [] is an empty page', () => {
  const y = SOURCES.yourls.api;
  const first = new URL(y.first('https://y.test', 'secret', ctx).url);
  assert.equal(first.pathname, '/yourls-api.php');
  assert.equal(first.searchParams.get('timestamp'), '1767225600');
  assert.equal(first.searchParams.get('signature'), createHash('md5').update('1767225600secret').digest('hex'));
  assert.equal(first.searchParams.get('token'), null);
  const named = new URL(y.first('https://y.test/sub/yourls-api.php', 'secret', ctx).url);
  assert.equal(named.pathname, '/sub/yourls-api.php');
  const empty = y.page({ links: [], stats: { total_links: '0' }, statusCode: 200 }, { url: first.href, headers: {}, what: '' }, 'https://y.test', 'secret', ctx);
  assert.deepEqual([empty.links, empty.next], [[], null]);
  const one = y.page({ links: { link_1: { shorturl: 'https://y.test/abc', url: 'https://example.com/', title: 'T', timestamp: '2020-05-06 07:08:09', clicks: '12' } }, stats: { total_links: '1' } }, { url: first.href, headers: {}, what: '' }, 'https://y.test', 'secret', ctx);
  assert.deepEqual([one.links[0].slug, one.links[0].clicks, one.links[0].createdAt, one.next], ['abc', 12, '2020-05-06T07:08:09.000Z', null]);
});
