// docs/api.md, Links: creating links — slugs, reserved words, URL rules, UTM, tags, limits, plan gates, the
// complete link object — and reading one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RESERVED_SLUGS } from '@hop/shared';
import { addMember, apiKey, fails, idPattern, ISO_MS, rawFails, setPlan, SHORT_DOMAIN, signup, succeeds, team, unique } from '../helpers/api.js';

const LINK_FIELDS = [
  'id', 'slug', 'domain', 'url', 'shortUrl', 'title', 'description', 'tags', 'expiresAt', 'expiredUrl', 'maxClicks',
  'passwordProtected', 'clicks', 'status', 'createdAt', 'updatedAt',
];
const inAnHour = () => new Date(Date.now() + 3600e3).toISOString();

test('a link with a generated slug: 201 and the complete object, unset values null, tags []', async () => {
  const t = await team();
  const before = Date.now();
  const res = await succeeds(t.api, 'createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/launch' } });
  assert.equal(res.status, 201);
  const link = res.body.data;
  for (const field of LINK_FIELDS) assert.ok(field in link, `the link has ${field}`);
  assert.match(link.id, idPattern('lnk'));
  assert.match(link.slug, /^[0-9A-Za-z]{7}$/);
  assert.equal(link.domain, SHORT_DOMAIN);
  assert.equal(link.url, 'https://example.com/launch');
  assert.equal(link.shortUrl, `http://${SHORT_DOMAIN}/${link.slug}`);
  assert.equal(link.title, null);
  assert.equal(link.description, null);
  assert.deepEqual(link.tags, []);
  assert.equal(link.expiresAt, null);
  assert.equal(link.expiredUrl, null);
  assert.equal(link.maxClicks, null);
  assert.equal(link.passwordProtected, false);
  assert.equal(link.clicks, 0);
  assert.equal(link.status, 'active');
  assert.match(link.createdAt, ISO_MS);
  assert.equal(link.updatedAt, link.createdAt);
  assert.ok(Math.abs(new Date(link.createdAt).getTime() - before) < 60_000);

  const got = await succeeds(t.api, 'getLink', { params: { workspaceId: t.workspaceId, linkId: link.id } });
  assert.deepEqual(got.body.data, link);

  // Generated slugs differ.
  const slugs = new Set([link.slug]);
  for (let i = 0; i < 5; i++) {
    const { data } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/launch' } });
    assert.match(data.slug, /^[0-9A-Za-z]{7}$/);
    slugs.add(data.slug);
  }
  assert.equal(slugs.size, 6);
});

test('a link with every field set comes back with each of them', async () => {
  const t = await team('pro');
  const expiresAt = inAnHour();
  const slug = unique('Full_');
  const { body } = await succeeds(t.api, 'createLink', {
    params: { workspaceId: t.workspaceId },
    body: {
      url: 'https://example.com/full?x=1', slug, domain: SHORT_DOMAIN.toUpperCase(), title: 'Full link', description: 'Every field',
      tags: ['Launch', 'q4'], expiresAt, expiredUrl: 'https://example.com/over', maxClicks: 10, password: 'long enough secret',
      utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'launch',
    },
  });
  const link = body.data;
  assert.equal(link.slug, slug);
  assert.equal(link.domain, SHORT_DOMAIN);
  assert.equal(link.title, 'Full link');
  assert.equal(link.description, 'Every field');
  assert.deepEqual(link.tags, ['launch', 'q4']);
  assert.equal(link.expiresAt, expiresAt);
  assert.equal(link.expiredUrl, 'https://example.com/over');
  assert.equal(link.maxClicks, 10);
  assert.equal(link.passwordProtected, true);
  assert.equal(link.status, 'active');
  const u = new URL(link.url);
  assert.equal(u.searchParams.get('x'), '1');
  assert.equal(u.searchParams.get('utm_source'), 'newsletter');
  assert.equal(u.searchParams.get('utm_medium'), 'email');
  assert.equal(u.searchParams.get('utm_campaign'), 'launch');
  assert.equal(link.shortUrl, `http://${SHORT_DOMAIN}/${slug}`);
  const text = JSON.stringify(body);
  assert.ok(!text.includes('long enough secret'), 'the password never comes back');
  assert.ok(!/password_?hash|scrypt/i.test(text), 'nor its hash');
});

test('custom slugs: 1-64 of [A-Za-z0-9_-], case-sensitive', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const base = unique('Ab');
  const ok = [base, base.toLowerCase() === base ? base.toUpperCase() : base.toLowerCase(), `${base}_x-Y`, `${base}${'z'.repeat(64)}`.slice(0, 64)];
  for (const slug of ok) {
    const { body } = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/', slug } });
    assert.equal(body.data.slug, slug, 'kept exactly, case included');
  }
  // A one-character slug is allowed (it may be taken by another test run; a clash is fine too).
  const single = await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: 'https://example.com/', slug: 'Z' } });
  assert.ok(single.status === 201 || (single.body as { error: { code: string } }).error.code === 'SLUG_ALREADY_EXISTS');

  const bad = ['', 'x'.repeat(65), 'has space', 'dot.ted', 'slash/ed', 'ümlaut', 'emoji😀', 'semi;colon', '%41'];
  for (const slug of bad) {
    const err = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', slug } }, 'VALIDATION_ERROR');
    assert.ok((err.details.issues as { path: string }[]).some((i) => i.path === 'slug'), `slug ${JSON.stringify(slug)}`);
  }
});

test('every reserved word is refused as a slug, in any case, with VALIDATION_ERROR', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const words = ['api', 'v1', 'oauth', 'q', 'qr', 'healthz', 'readyz', 'docs', 'static', 'assets', 'metrics',
    'favicon.ico', 'robots.txt', '.well-known', 'admin', 'login', 'logout', 'app'];
  assert.deepEqual([...RESERVED_SLUGS].sort(), [...words].sort(), 'the shared list is the contract list');
  for (const word of words) {
    for (const slug of [word, word.toUpperCase(), word[0].toUpperCase() + word.slice(1)]) {
      const err = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', slug } }, 'VALIDATION_ERROR');
      assert.ok((err.details.issues as { path: string }[]).some((i) => i.path === 'slug'), `${slug} refused at slug`);
    }
  }
  // Words that merely contain one are fine.
  await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/', slug: unique('api-') } });
});

test('a taken slug answers 400 SLUG_ALREADY_EXISTS with a suggestion that really is free', async () => {
  const t = await team();
  const other = await team();
  const slug = unique('taken-');
  await succeeds(t.api, 'createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/a', slug } });
  // Unique per domain: another workspace on the same domain cannot have it either.
  const err = await fails(other.api, 'createLink', { params: { workspaceId: other.workspaceId }, body: { url: 'https://example.com/b', slug } }, 'SLUG_ALREADY_EXISTS', 400);
  assert.equal(err.details.field, 'slug');
  assert.equal(err.details.value, slug);
  const suggestion = String(err.details.suggestion);
  assert.notEqual(suggestion, slug);
  assert.match(suggestion, /^[A-Za-z0-9_-]{1,64}$/);
  // Take the suggestion's first pick so the next clash must suggest another.
  await succeeds(other.api, 'createLink', { params: { workspaceId: other.workspaceId }, body: { url: 'https://example.com/b', slug: suggestion } });
  const again = await fails(t.api, 'createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/c', slug } }, 'SLUG_ALREADY_EXISTS', 400);
  assert.notEqual(again.details.suggestion, suggestion);
  await succeeds(t.api, 'createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/c', slug: String(again.details.suggestion) } });

  // Case-sensitive: the same letters in another case are another slug.
  const upper = slug.toUpperCase();
  await succeeds(t.api, 'createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/d', slug: upper } });

  // A 64-character slug gets a suggestion that is still a valid slug.
  const long = `${unique('L')}${'x'.repeat(64)}`.slice(0, 64);
  await succeeds(t.api, 'createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/e', slug: long } });
  const e3 = await fails(t.api, 'createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/e', slug: long } }, 'SLUG_ALREADY_EXISTS', 400);
  assert.match(String(e3.details.suggestion), /^[A-Za-z0-9_-]{1,64}$/);
  await succeeds(t.api, 'createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/e', slug: String(e3.details.suggestion) } });
});

test('UTM fields are merged into the URL, replacing utm parameters already there', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const { data } = await t.api.call('createLink', {
    params,
    body: { url: 'https://example.com/p?utm_source=old&utm_medium=keep&a=1#frag', utmSource: 'new', utmCampaign: 'spring sale' },
  });
  const u = new URL(data.url);
  assert.deepEqual(u.searchParams.getAll('utm_source'), ['new']);
  assert.deepEqual(u.searchParams.getAll('utm_medium'), ['keep']);
  assert.deepEqual(u.searchParams.getAll('utm_campaign'), ['spring sale']);
  assert.equal(u.searchParams.get('a'), '1');
  assert.equal(u.hash, '#frag');
  assert.equal(u.pathname, '/p');
  // Without UTM fields the URL is kept as given.
  const plain = await t.api.call('createLink', { params, body: { url: 'https://example.com/p?utm_source=old&b=%20x' } });
  assert.equal(plain.data.url, 'https://example.com/p?utm_source=old&b=%20x');
  await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', utmSource: '' } }, 'VALIDATION_ERROR');
  await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', utmMedium: 'm'.repeat(257) } }, 'VALIDATION_ERROR');
});

test('tags: stored lower-case, at most 20 per link, each 1-50 characters', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const twenty = Array.from({ length: 20 }, (_, i) => `Tag${i}`);
  const { data } = await t.api.call('createLink', { params, body: { url: 'https://example.com/', tags: twenty } });
  assert.deepEqual(data.tags, twenty.map((x) => x.toLowerCase()));
  const dup = await t.api.call('createLink', { params, body: { url: 'https://example.com/', tags: ['Dup', 'dup', 'DUP', 'x'.repeat(50)] } });
  assert.deepEqual(dup.data.tags, ['dup', 'x'.repeat(50)]);
  await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', tags: [...twenty, 'one-more'] } }, 'VALIDATION_ERROR');
  await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', tags: [''] } }, 'VALIDATION_ERROR');
  await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', tags: ['x'.repeat(51)] } }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: 'https://example.com/', tags: 'a,b' } }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: 'https://example.com/', tags: [1, 2] } }, 'VALIDATION_ERROR');
});

test('title at most 256, description at most 1,024, url at most 2,048 characters', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const longUrl = `https://example.com/${'p'.repeat(2048 - 'https://example.com/'.length)}`;
  assert.equal(longUrl.length, 2048);
  const { data } = await t.api.call('createLink', { params, body: { url: longUrl, title: 't'.repeat(256), description: 'd'.repeat(1024) } });
  assert.equal(data.url, longUrl);
  assert.equal(data.title?.length, 256);
  assert.equal(data.description?.length, 1024);
  for (const [field, body] of [
    ['title', { url: 'https://example.com/', title: 't'.repeat(257) }],
    ['description', { url: 'https://example.com/', description: 'd'.repeat(1025) }],
    ['url', { url: `${longUrl}p` }],
  ] as const) {
    const err = await fails(t.api, 'createLink', { params, body }, 'VALIDATION_ERROR');
    assert.ok((err.details.issues as { path: string }[]).some((i) => i.path === field), field);
  }
});

test('url: absolute http(s) only; no protocol, ftp:, javascript:, data: and the short domain itself are refused', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  await succeeds(t.api, 'createLink', { params, body: { url: 'http://example.com' } });
  await succeeds(t.api, 'createLink', { params, body: { url: 'HTTPS://Example.com/Path' } });
  const bad = [
    'example.com/page', 'www.example.com', '//example.com/x', 'ftp://example.com/file', 'javascript:alert(1)',
    'data:text/html,<b>hi</b>', 'mailto:a@example.com', 'file:///etc/passwd', 'https://', 'http:example.com', '', 'not a url',
  ];
  for (const url of bad) {
    const err = await fails(t.api, 'createLink', { params, body: { url } }, 'VALIDATION_ERROR');
    assert.ok((err.details.issues as { path: string }[]).some((i) => i.path === 'url'), `url ${url} refused at url`);
  }
  // Loops: the service's own short domain, in any case, any scheme, with any path.
  for (const url of [`http://${SHORT_DOMAIN}/abc`, `https://${SHORT_DOMAIN.toUpperCase()}/`, `http://${SHORT_DOMAIN}`]) {
    const err = await fails(t.api, 'createLink', { params, body: { url } }, 'VALIDATION_ERROR');
    assert.ok((err.details.issues as { path: string }[]).some((i) => i.path === 'url'), `loop ${url}`);
  }
  const e2 = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', expiredUrl: `http://${SHORT_DOMAIN}/x` } }, 'VALIDATION_ERROR');
  assert.ok((e2.details.issues as { path: string }[]).some((i) => i.path === 'expiredUrl'));
  await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', expiredUrl: 'ftp://example.com/' } }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'POST', `/v1/workspaces/${t.workspaceId}/links`, { body: {} }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: 42 } }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: null } }, 'VALIDATION_ERROR');
});

test('expiresAt must be a future ISO timestamp; maxClicks a positive integer', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const path = `/v1/workspaces/${t.workspaceId}/links`;
  const past = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', expiresAt: new Date(Date.now() - 60e3).toISOString() } }, 'VALIDATION_ERROR');
  assert.ok((past.details.issues as { path: string }[]).some((i) => i.path === 'expiresAt'));
  await rawFails(t.api, 'POST', path, { body: { url: 'https://example.com/', expiresAt: 'tomorrow' } }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'POST', path, { body: { url: 'https://example.com/', expiresAt: Date.now() + 3600e3 } }, 'VALIDATION_ERROR');
  // An offset is accepted and answered in UTC with milliseconds.
  const local = new Date(Date.now() + 7200e3);
  const withOffset = `${new Date(local.getTime() + 2 * 3600e3).toISOString().slice(0, 19)}+02:00`;
  const { data } = await t.api.call('createLink', { params, body: { url: 'https://example.com/', expiresAt: withOffset } });
  assert.match(String(data.expiresAt), ISO_MS);
  assert.equal(new Date(String(data.expiresAt)).getTime(), new Date(withOffset).getTime());

  for (const maxClicks of [0, -1, 1.5, '5', true, 2 ** 31]) {
    const err = await rawFails(t.api, 'POST', path, { body: { url: 'https://example.com/', maxClicks } }, 'VALIDATION_ERROR');
    assert.ok((err.details.issues as { path: string }[]).some((i) => i.path === 'maxClicks'), `maxClicks ${maxClicks}`);
  }
  const one = await t.api.call('createLink', { params, body: { url: 'https://example.com/', maxClicks: 1, expiresAt: null, title: null } });
  assert.equal(one.data.maxClicks, 1);
  assert.equal(one.data.expiresAt, null);
  assert.equal(one.data.title, null);
});

test('unknown fields and wrong types are refused', async () => {
  const t = await team();
  const path = `/v1/workspaces/${t.workspaceId}/links`;
  const cases: Record<string, unknown>[] = [
    { url: 'https://example.com/', titel: 'typo' },
    { url: 'https://example.com/', clicks: 5 },
    { url: 'https://example.com/', id: 'lnk_0000000000000000aaaa' },
    { url: 'https://example.com/', passwordProtected: true },
    { url: 'https://example.com/', title: 5 },
    { url: 'https://example.com/', description: ['x'] },
    { url: 'https://example.com/', slug: 12345 },
    { url: 'https://example.com/', domain: 7 },
  ];
  for (const body of cases) await rawFails(t.api, 'POST', path, { body }, 'VALIDATION_ERROR');
  const typo = await rawFails(t.api, 'POST', path, { body: cases[0] }, 'VALIDATION_ERROR');
  assert.match(JSON.stringify(typo.details.issues), /titel/, 'the unknown key is named');
});

test('password protection needs pro: 403 TIER_REQUIRED on free, accepted on pro and never returned', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const err = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', password: 'hunter2hunter2' } }, 'TIER_REQUIRED', 403);
  assert.equal(err.details.feature, 'password_protection');
  assert.equal(err.details.currentPlan, 'free');
  assert.equal(err.details.requiredPlan, 'pro');
  assert.match(String(err.details.upgradeUrl), new RegExp(`^https?://[^/]+/app/${t.slug}/settings/billing$`));
  // Starter is not enough either.
  await setPlan(t.workspaceId, 'starter');
  const e2 = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', password: 'hunter2hunter2' } }, 'TIER_REQUIRED', 403);
  assert.equal(e2.details.currentPlan, 'starter');

  await setPlan(t.workspaceId, 'pro');
  const short = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', password: 'short' } }, 'VALIDATION_ERROR');
  assert.ok((short.details.issues as { path: string }[]).some((i) => i.path === 'password'));
  const { body } = await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/', password: 'hunter2hunter2' } });
  assert.equal(body.data.passwordProtected, true);
  assert.equal('password' in body.data, false);
  assert.ok(!JSON.stringify(body).includes('hunter2hunter2'));
  const got = await succeeds(t.api, 'getLink', { params: { ...params, linkId: body.data.id } });
  assert.equal(got.body.data.passwordProtected, true);
  assert.ok(!JSON.stringify(got.body).includes('hunter2'));
  // Business and enterprise are pro or higher.
  await setPlan(t.workspaceId, 'business');
  await succeeds(t.api, 'createLink', { params, body: { url: 'https://example.com/', password: 'hunter2hunter2' } });
  // A null password on free is no protection, and allowed.
  const free = await team();
  const none = await succeeds(free.api, 'createLink', { params: { workspaceId: free.workspaceId }, body: { url: 'https://example.com/', password: null } });
  assert.equal(none.body.data.passwordProtected, false);
});

test('only the default short domain is accepted until custom domains exist', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  for (const domain of ['example.com', 'other.hop.test', 'localhost']) {
    const err = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com/', domain } }, 'VALIDATION_ERROR', 400);
    assert.ok((err.details.issues as { path: string }[]).some((i) => i.path === 'domain'), domain);
  }
  const { data } = await t.api.call('createLink', { params, body: { url: 'https://example.com/', domain: SHORT_DOMAIN } });
  assert.equal(data.domain, SHORT_DOMAIN);
});

test('status reads active, expired or limit_reached', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const { data: active } = await t.api.call('createLink', { params, body: { url: 'https://example.com/', maxClicks: 3, expiresAt: inAnHour() } });
  assert.equal(active.status, 'active');
  // expired is covered with a moved clock in test/in-process/expiry.test.ts; limit_reached with real
  // visits in redirect.test.ts.
});

test('get: links of another workspace, or that do not exist, answer 404; bad ids 400', async () => {
  const t = await team();
  const other = await team();
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/' } });
  // The other owner names his own workspace with our link id: not found.
  const e = await fails(other.api, 'getLink', { params: { workspaceId: other.workspaceId, linkId: link.id } }, 'NOT_FOUND', 404);
  assert.equal(e.details.resource, 'link');
  // Or our workspace: not his, so not found (never 403).
  await fails(other.api, 'getLink', { params: { workspaceId: t.workspaceId, linkId: link.id } }, 'NOT_FOUND', 404);
  await fails(other.api, 'createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/' } }, 'NOT_FOUND', 404);
  await fails(other.api, 'listLinks', { params: { workspaceId: t.workspaceId } }, 'NOT_FOUND', 404);
  await fails(t.api, 'getLink', { params: { workspaceId: t.workspaceId, linkId: 'lnk_0000000000000000zzzz' } }, 'NOT_FOUND', 404);
  await rawFails(t.api, 'GET', `/v1/workspaces/${t.workspaceId}/links/link_123`, {}, 'VALIDATION_ERROR');
  await fails(t.api, 'getLink', { params: { workspaceId: t.workspaceId, linkId: link.id }, headers: { authorization: 'Bearer x' } }, 'UNAUTHORIZED', 401);
});

test('roles: viewers cannot create links (403 FORBIDDEN, requiredRole member); members can', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const viewer = await addMember(t, 'viewer');
  const err = await fails(viewer.api, 'createLink', { params, body: { url: 'https://example.com/' } }, 'FORBIDDEN', 403);
  assert.equal(err.details.requiredRole, 'member');
  const member = await addMember(t, 'member');
  const { body } = await succeeds(member.api, 'createLink', { params, body: { url: 'https://example.com/' } });
  assert.equal(body.data.createdBy, member.userId);
  await succeeds(viewer.api, 'getLink', { params: { ...params, linkId: body.data.id } });
  const key = await apiKey(t, ['links:read']);
  await fails(key.api, 'createLink', { params, body: { url: 'https://example.com/' } }, 'INSUFFICIENT_SCOPE', 403);
  const stranger = await signup();
  await fails(stranger.api, 'createLink', { params, body: { url: 'https://example.com/' } }, 'NOT_FOUND', 404);
});
