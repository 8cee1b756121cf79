// docs/api.md, Links; The redirector: the redirector, served by the test server on its API host for the default short
// domain. Clicks are flushed every 100 ms in tests, so counts are polled, never slept for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link } from '@hop/shared';
import { assertErrorShape, BROWSER_UA, eventually, pause, succeeds, team, type Team, unique, visit } from '../helpers/api.js';

async function newLink(t: Team, body: Record<string, unknown> = {}): Promise<Link> {
  const { data } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/dest', ...body } });
  return data;
}

const getLink = async (t: Team, id: string) => (await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: id } })).data;

/** Polls the link until its click count reaches `n`; fails if it passes `n`. */
async function clicksReach(t: Team, id: string, n: number): Promise<Link> {
  const link = await eventually(async () => {
    const l = await getLink(t, id);
    return l.clicks >= n ? l : undefined;
  }, 10_000, `clicks to reach ${n}`);
  assert.equal(link.clicks, n);
  return link;
}

function assertRedirect(res: Response, location: string) {
  assert.equal(res.status, 302);
  assert.equal(res.headers.get('location'), location);
  assert.equal(res.headers.get('cache-control'), 'private, no-store');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer-when-downgrade');
  assert.ok(res.headers.get('x-request-id'), 'X-Request-Id on a redirect');
}

async function assertHtmlPage(res: Response, status: number) {
  assert.equal(res.status, status);
  assert.match(String(res.headers.get('content-type')), /text\/html/);
  const html = await res.text();
  assert.match(html, /<html/i);
  assert.doesNotMatch(html, /\n\s+at |node_modules/);
  return html;
}

async function assertJsonError(res: Response, code: 'NOT_FOUND' | 'GONE', status: number) {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep the text; the shape check below fails with it */
  }
  assertErrorShape({ status: res.status, headers: Object.fromEntries(res.headers), body, text }, code, status);
}

test('an active link answers 302 with Location, Cache-Control private, no-store and Referrer-Policy', async () => {
  const t = await team();
  const link = await newLink(t, { url: 'https://example.com/landing?ref=hop' });
  assertRedirect(await visit(`/${link.slug}`), 'https://example.com/landing?ref=hop');
  // HEAD answers the same without a body.
  const head = await visit(`/${link.slug}`, { method: 'HEAD' });
  assertRedirect(head, 'https://example.com/landing?ref=hop');
  // Trailing slash is the same path.
  assertRedirect(await visit(`/${link.slug}/`), 'https://example.com/landing?ref=hop');
});

test("the visit's query parameters are appended, never overriding the destination's", async () => {
  const t = await team();
  const link = await newLink(t, { url: 'https://example.com/p?a=1&utm_source=newsletter' });
  const res = await visit(`/${link.slug}?a=2&b=3&utm_source=twitter&utm_medium=social`);
  assert.equal(res.status, 302);
  const u = new URL(String(res.headers.get('location')));
  assert.equal(u.origin + u.pathname, 'https://example.com/p');
  assert.deepEqual(u.searchParams.getAll('a'), ['1']);
  assert.deepEqual(u.searchParams.getAll('utm_source'), ['newsletter']);
  assert.equal(u.searchParams.get('b'), '3');
  assert.equal(u.searchParams.get('utm_medium'), 'social');
  // No query: the destination exactly.
  assertRedirect(await visit(`/${link.slug}`), 'https://example.com/p?a=1&utm_source=newsletter');
  assertRedirect(await visit(`/${link.slug}?`), 'https://example.com/p?a=1&utm_source=newsletter');
});

test('an unknown slug answers a 404 HTML page, or the JSON error when Accept asks for it', async () => {
  const slug = unique('missing-');
  const html = await assertHtmlPage(await visit(`/${slug}`), 404);
  assert.match(html, /not found/i);
  const json = await visit(`/${slug}`, { headers: { accept: 'application/json' } });
  assert.equal(json.headers.get('cache-control'), 'private, no-store');
  await assertJsonError(json, 'NOT_FOUND', 404);
  // Slugs are case-sensitive: the same letters in another case are another (unknown) slug.
  const t = await team();
  const link = await newLink(t, { slug: unique('CaseSlug') });
  assert.equal((await visit(`/${link.slug.toLowerCase()}`)).status, 404);
  assert.equal((await visit(`/${link.slug}`)).status, 302);
});

test('a changed link redirects to its new destination at once; a deleted one answers 404', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const link = await newLink(t, { url: 'https://example.com/old' });
  assertRedirect(await visit(`/${link.slug}`), 'https://example.com/old');
  await t.api.call('updateLink', { params: { ...params, linkId: link.id }, body: { url: 'https://example.com/new' } });
  assertRedirect(await visit(`/${link.slug}`), 'https://example.com/new');
  const newSlug = unique('moved-');
  await t.api.call('updateLinkById', { params: { linkId: link.id }, body: { slug: newSlug } });
  assert.equal((await visit(`/${link.slug}`)).status, 404);
  assertRedirect(await visit(`/${newSlug}`), 'https://example.com/new');
  await t.api.call('deleteLink', { params: { ...params, linkId: link.id } });
  assert.equal((await visit(`/${newSlug}`)).status, 404);
});

test('an expired link answers 410 (HTML, or JSON when asked), or 302 to expiredUrl when set', async () => {
  const t = await team();
  const expiresAt = new Date(Date.now() + 4000).toISOString();
  const plain = await newLink(t, { expiresAt });
  const withFallback = await newLink(t, { expiresAt, expiredUrl: 'https://example.com/expired' });
  assertRedirect(await visit(`/${plain.slug}`), 'https://example.com/dest');
  assertRedirect(await visit(`/${withFallback.slug}`), 'https://example.com/dest');

  const gone = await eventually(async () => {
    const res = await visit(`/${plain.slug}`);
    if (res.status === 302) return undefined;
    return res;
  }, 10_000, 'the link to expire');
  assert.ok(Date.now() >= new Date(expiresAt).getTime() - 50, 'not before its time');
  const html = await assertHtmlPage(gone, 410);
  assert.match(html, /expired/i);
  await assertJsonError(await visit(`/${plain.slug}`, { headers: { accept: 'application/json' } }), 'GONE', 410);
  assertRedirect(await visit(`/${withFallback.slug}?x=1`), 'https://example.com/expired');
  assert.equal((await getLink(t, plain.id)).status, 'expired');

  // A future expiresAt makes it live again.
  await t.api.call('updateLink', { params: { workspaceId: t.workspaceId, linkId: plain.id }, body: { expiresAt: new Date(Date.now() + 3600e3).toISOString() } });
  assertRedirect(await visit(`/${plain.slug}`), 'https://example.com/dest');
});

test('visits increase the click counter; bots and HEAD requests do not count', async () => {
  const t = await team();
  const link = await newLink(t);
  assert.equal(link.clicks, 0);
  assert.equal((await visit(`/${link.slug}`, { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } })).status, 302);
  assert.equal((await visit(`/${link.slug}`, { method: 'HEAD' })).status, 302);
  for (let i = 0; i < 3; i++) assert.equal((await visit(`/${link.slug}`)).status, 302);
  await clicksReach(t, link.id, 3);
  // One more round: still exact (nothing counted late).
  assert.equal((await visit(`/${link.slug}`)).status, 302);
  await clicksReach(t, link.id, 4);
});

test('maxClicks: after N visits the link answers 410 and reads limit_reached; raising it reactivates', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const link = await newLink(t, { maxClicks: 3 });
  for (let i = 0; i < 3; i++) assertRedirect(await visit(`/${link.slug}`), 'https://example.com/dest');
  const counted = await clicksReach(t, link.id, 3);
  assert.equal(counted.status, 'limit_reached');
  const html = await assertHtmlPage(await visit(`/${link.slug}`), 410);
  assert.match(html, /limit/i);
  await assertJsonError(await visit(`/${link.slug}`, { headers: { accept: 'application/json' } }), 'GONE', 410);
  await pause(250); // two flush periods: refused visits must not have counted
  assert.equal((await getLink(t, link.id)).clicks, 3, 'refused visits do not count');

  const raised = await succeeds(t.api, 'updateLink', { params: { ...params, linkId: link.id }, body: { maxClicks: 4 } });
  assert.equal(raised.body.data.status, 'active');
  assertRedirect(await visit(`/${link.slug}`), 'https://example.com/dest');
  await clicksReach(t, link.id, 4);
  assert.equal((await visit(`/${link.slug}`)).status, 410);
  // Clearing the limit reactivates too.
  await t.api.call('updateLink', { params: { ...params, linkId: link.id }, body: { maxClicks: null } });
  assert.equal((await visit(`/${link.slug}`)).status, 302);
});

test('maxClicks with expiredUrl sends visitors there once the limit is reached', async () => {
  const t = await team();
  const link = await newLink(t, { maxClicks: 1, expiredUrl: 'https://example.com/sold-out' });
  assertRedirect(await visit(`/${link.slug}`), 'https://example.com/dest');
  assertRedirect(await visit(`/${link.slug}`), 'https://example.com/sold-out');
  await clicksReach(t, link.id, 1);
});

test('concurrent visitors never push clicks past maxClicks', async () => {
  const t = await team();
  const link = await newLink(t, { maxClicks: 5 });
  const answers = await Promise.all(Array.from({ length: 12 }, () => visit(`/${link.slug}`)));
  const statuses = answers.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 302).length, 5, `statuses ${statuses}`);
  assert.equal(statuses.filter((s) => s === 410).length, 7);
  await clicksReach(t, link.id, 5);
  await pause(250);
  assert.equal((await getLink(t, link.id)).clicks, 5);
});

test('a password-protected link shows a form without the destination; the right password unlocks it', async () => {
  const t = await team('pro');
  const secretUrl = `https://example.com/secret-${unique()}`;
  const link = await newLink(t, { url: secretUrl, password: 'open sesame please' });
  const form = await visit(`/${link.slug}`);
  assert.notEqual(form.status, 302);
  const html = await form.text();
  assert.match(String(form.headers.get('content-type')), /text\/html/);
  assert.match(html, /<form/i);
  assert.match(html, /name="password"/);
  assert.ok(!html.includes(secretUrl), 'the destination is never in the form');

  const post = (password: string) => fetch(`${process.env.HOP_TEST_API_URL}/${link.slug}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER_UA.desktopChrome },
    body: new URLSearchParams({ password }).toString(),
  });
  const wrong = await post('not the password');
  assert.equal(wrong.status, 401);
  assert.ok(!(await wrong.text()).includes(secretUrl));
  const right = await post('open sesame please');
  assertRedirect(right, secretUrl);
  const cookie = String(right.headers.get('set-cookie'));
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Lax/i);
  // The cookie lets the visitor through afterwards.
  const again = await visit(`/${link.slug}`, { headers: { cookie: cookie.split(';')[0] } });
  assertRedirect(again, secretUrl);
});

test('odd slugs never crash the redirector: 404, never 500', async () => {
  const wrong: string[] = [];
  for (const path of ['/%00', '/a%00b', `/${'x'.repeat(300)}`, '/%ZZ', '/..%2f..%2fetc', '/%E2%82', '/ünïcode', '/a.b']) {
    const res = await visit(path);
    if (![400, 404, 414].includes(res.status)) wrong.push(`${path} answered ${res.status}`);
    await res.arrayBuffer();
  }
  assert.deepEqual(wrong, []);
});

test('a bot or a HEAD request on a link with a click limit learns no destination and uses no click', async () => {
  const t = await team();
  const link = await newLink(t, { url: 'https://example.com/limited-secret', maxClicks: 2 });
  for (const opts of [{ ua: BROWSER_UA.googlebot }, { method: 'HEAD' }, { method: 'HEAD', ua: BROWSER_UA.googlebot }]) {
    const res = await visit(`/${link.slug}`, opts);
    assert.equal(res.status, 200, JSON.stringify(opts));
    assert.equal(res.headers.get('location'), null);
    assert.match(String(res.headers.get('content-type')), /text\/html/);
    assert.doesNotMatch(await res.text(), /limited-secret/);
  }
  assertRedirect(await visit(`/${link.slug}`), 'https://example.com/limited-secret');
  await clicksReach(t, link.id, 1);
  assertRedirect(await visit(`/${link.slug}`), 'https://example.com/limited-secret');
  await clicksReach(t, link.id, 2);
  // Once the limit is reached, bots see what people see.
  assert.equal((await visit(`/${link.slug}`, { ua: BROWSER_UA.googlebot })).status, 410);
});
