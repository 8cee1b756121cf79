// Smart links through the real server: the five fields (validation, round trip on create, update,
// bulk and /api/v1/links), the redirector's choice (each rule key, precedence, A/B split and its
// stickiness, link-preview crawlers) and `resolve`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link } from '@hop/shared';
import { apiKey, BROWSER_UA, eventually, fails, succeeds, team, visit, type Team } from '../helpers/api.js';

export const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  chromeMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

const newLink = async (t: Team, body: Record<string, unknown>): Promise<Link> =>
  (await succeeds(t.api, 'createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/default', ...body } as never })).body.data;

const where = async (slug: string, headers: Record<string, string> = {}) => {
  const res = await visit(`/${slug}`, { headers });
  assert.equal(res.status, 302, `visit of ${slug}`);
  return res.headers.get('location');
};

const resolve = async (t: Team, linkId: string, query: Record<string, string> = {}) =>
  (await succeeds(t.api, 'resolveLink', { params: { workspaceId: t.workspaceId, linkId }, query })).body.data;

const SMART = {
  rules: [
    { when: { country: ['DE', 'AT'], device: 'mobile' }, url: 'https://example.com/de-mobile' },
    { when: { language: 'fr' }, url: 'https://example.com/fr' },
  ],
  variants: [{ url: 'https://example.com/a', weight: 30 }, { url: 'https://example.com/b', weight: 70 }],
  ios: 'https://apps.example.com/app/id123456789',
  android: 'market://details?id=com.example.app',
  preview: { title: 'Launch <day>', description: 'All the "news"', image: 'https://cdn.example.com/card.png' },
};

test('a plain link has all five smart fields null; the fields come back as sent on create, get and list', async () => {
  const t = await team();
  const plain = await newLink(t, {});
  for (const f of ['rules', 'variants', 'ios', 'android', 'preview', 'health'] as const) assert.equal(plain[f], null, f);
  const smart = await newLink(t, SMART);
  for (const f of ['rules', 'variants', 'ios', 'android', 'preview'] as const) assert.deepEqual(smart[f], SMART[f], f);
  assert.equal(smart.health, null);
  const got = (await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: smart.id } })).data;
  for (const f of ['rules', 'variants', 'ios', 'android', 'preview'] as const) assert.deepEqual(got[f], SMART[f], f);
  const listed = (await t.api.call('listLinks', { params: { workspaceId: t.workspaceId }, query: {} })).data.find((l) => l.id === smart.id)!;
  assert.deepEqual(listed.rules, SMART.rules);
});

test('validation: 20 rules at most, when {} refused, javascript: refused, 2-10 variants summing to 100, https preview image', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const rule = { when: { country: 'DE' }, url: 'https://example.com/x' };
  await newLink(t, { rules: Array(20).fill(rule) });
  const bad: [string, Record<string, unknown>][] = [
    ['21 rules', { rules: Array(21).fill(rule) }],
    ['when {}', { rules: [{ when: {}, url: 'https://example.com/x' }] }],
    ['javascript: rule', { rules: [{ when: { country: 'DE' }, url: 'javascript:alert(1)' }] }],
    ['javascript: ios', { ios: 'javascript:alert(1)' }],
    ['data: android', { android: 'data:text/html,<script>alert(1)</script>' }],
    // App links are an allowlist: http(s), an app's own scheme://, intent: falling back to http(s).
    ['view-source: ios', { ios: 'view-source:https://example.com/' }],
    ['jar: android', { android: 'jar:https://example.com/a.jar!/x.html' }],
    ['filesystem: ios', { ios: 'filesystem:https://example.com/temporary/x.html' }],
    ['ms-msdt: android', { android: 'ms-msdt:/id PCWDiagnostic /skip force' }],
    ['ms-msdt:// ios', { ios: 'ms-msdt://id' }],
    ['livescript: ios', { ios: 'livescript:alert(1)' }],
    ['x-javascript: android', { android: 'x-javascript:alert(1)' }],
    ['javascript:// ios', { ios: 'javascript://%0aalert(1)' }],
    ['intent: javascript fallback', { android: 'intent://open#Intent;scheme=myapp;package=com.example;S.browser_fallback_url=javascript%3Aalert(1);end' }],
    ['intent: data fallback', { android: 'intent://open#Intent;scheme=myapp;S.browser_fallback_url=data%3Atext%2Fhtml%2Cx;end' }],
    ['intent: javascript scheme', { android: 'intent://alert(1)#Intent;scheme=javascript;end' }],
    ['javascript: variant', { variants: [{ url: 'javascript:alert(1)', weight: 50 }, { url: 'https://example.com/b', weight: 50 }] }],
    ['one variant', { variants: [{ url: 'https://example.com/a', weight: 100 }] }],
    ['11 variants', { variants: [...Array(10).fill({ url: 'https://example.com/a', weight: 9 }), { url: 'https://example.com/b', weight: 10 }] }],
    ['weights 50+40', { variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 40 }] }],
    ['http preview image', { preview: { title: 'x', image: 'http://cdn.example.com/card.png' } }],
    ['unknown rule key', { rules: [{ when: { city: 'Berlin' }, url: 'https://example.com/x' }] }],
    ['bad device', { rules: [{ when: { device: 'phone' }, url: 'https://example.com/x' }] }],
    ['bad country', { rules: [{ when: { country: 'Germany' }, url: 'https://example.com/x' }] }],
    ['empty preview', { preview: {} }],
  ];
  for (const [what, body] of bad) {
    const err = await fails(t.api, 'createLink', { params, body: { url: 'https://example.com', ...body } as never }, 'VALIDATION_ERROR');
    assert.ok(err.message.length > 0, what);
  }
  for (const app of ['myapp://open/42', 'fb://profile/1', 'itms-apps://apps.apple.com/app/id1', 'https://example.com/app',
    'intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;S.browser_fallback_url=https%3A%2F%2Fexample.com%2F;end',
    'intent://open#Intent;package=com.example;end']) {
    const link = await newLink(t, { android: app, ios: app.startsWith('intent:') ? null : app });
    assert.equal(link.android, app, 'an allowed app link is kept as sent');
  }
  // A rule may not send visitors back to Hop itself.
  const short = new URL(process.env.HOP_TEST_API_URL ?? 'http://127.0.0.1:3000');
  await fails(t.api, 'createLink', {
    params, body: { url: 'https://example.com', rules: [{ when: { country: 'DE' }, url: `http://localhost:${short.port}/loop` }] },
  }, 'VALIDATION_ERROR');
});

test('update sets, replaces and clears (null) each field; bulk and /api/v1/links take them too', async () => {
  const t = await team();
  const link = await newLink(t, {});
  const params = { workspaceId: t.workspaceId, linkId: link.id };
  const set = (await succeeds(t.api, 'updateLink', { params, body: SMART as never })).body.data;
  for (const f of ['rules', 'variants', 'ios', 'android', 'preview'] as const) assert.deepEqual(set[f], SMART[f], f);
  const cleared = (await succeeds(t.api, 'updateLink', { params, body: { rules: null, variants: null, ios: null, android: null, preview: null } })).body.data;
  for (const f of ['rules', 'variants', 'ios', 'android', 'preview'] as const) assert.equal(cleared[f], null, f);

  const bulk = (await succeeds(t.api, 'bulkCreateLinks', {
    params: { workspaceId: t.workspaceId },
    body: [{ url: 'https://example.com/1', ...SMART }, { url: 'https://example.com/2', rules: [{ when: {}, url: 'https://example.com' }] }, { url: 'https://example.com/3' }],
  })).body.data;
  assert.equal(bulk[0].success, true);
  assert.deepEqual(bulk[0].success && bulk[0].data.variants, SMART.variants);
  assert.deepEqual(bulk[0].success && bulk[0].data.preview, SMART.preview);
  assert.equal(bulk[1].success, false);
  assert.equal(bulk[2].success && bulk[2].data.rules, null);

  const key = await apiKey(t, ['links:write']);
  const res = await key.api.raw('POST', '/api/v1/links', { body: { url: 'https://example.com/int', ios: SMART.ios, variants: SMART.variants } });
  assert.equal(res.status, 201, res.text);
  assert.equal((res.body as Link).ios, SMART.ios);
  assert.deepEqual((res.body as Link).variants, SMART.variants);
});

test('the redirector applies each rule key: country (offline database), device, os, browser, language, after and before', async () => {
  const t = await team();
  const hour = 3_600_000;
  const link = await newLink(t, {
    rules: [
      { when: { country: 'de' }, url: 'https://example.com/country' },
      { when: { device: 'tablet' }, url: 'https://example.com/device' },
      { when: { os: 'Android' }, url: 'https://example.com/os' },
      { when: { browser: ['firefox'] }, url: 'https://example.com/browser' },
      { when: { language: 'fr' }, url: 'https://example.com/language' },
      { when: { after: new Date(Date.now() + hour).toISOString() }, url: 'https://example.com/later' },
      { when: { after: new Date(Date.now() - hour).toISOString(), before: new Date(Date.now() + hour).toISOString(), language: 'es' }, url: 'https://example.com/now' },
      { when: { before: new Date(Date.now() - hour).toISOString() }, url: 'https://example.com/earlier' },
    ],
  });
  assert.equal(await where(link.slug, { 'x-forwarded-for': '5.9.0.1' }), 'https://example.com/country');
  assert.equal(await where(link.slug, { 'x-forwarded-for': '81.2.69.142' }), 'https://example.com/default');
  assert.equal(await where(link.slug, { 'user-agent': UA.ipad }), 'https://example.com/device');
  assert.equal(await where(link.slug, { 'user-agent': UA.android }), 'https://example.com/os');
  assert.equal(await where(link.slug, { 'user-agent': UA.firefox }), 'https://example.com/browser');
  assert.equal(await where(link.slug, { 'accept-language': 'fr-CA,en;q=0.8' }), 'https://example.com/language');
  // Only the first Accept-Language entry counts.
  assert.equal(await where(link.slug, { 'accept-language': 'en-US,fr;q=0.9' }), 'https://example.com/default');
  assert.equal(await where(link.slug, { 'accept-language': 'es' }), 'https://example.com/now');
  assert.equal(await where(link.slug), 'https://example.com/default');
  // The visit's query is passed on to the chosen destination, as to any other.
  const res = await visit(`/${link.slug}?ref=x`, { headers: { 'accept-language': 'fr' } });
  assert.equal(res.headers.get('location'), 'https://example.com/language?ref=x');
});

test('precedence: ios/android before rules, rules in order before variants, variants before url', async () => {
  const t = await team();
  const link = await newLink(t, {
    ios: 'myapp://open/42',
    android: 'https://play.example.com/store/apps/details?id=com.example',
    rules: [
      { when: { device: 'mobile' }, url: 'https://example.com/mobile' },
      { when: { device: ['mobile', 'desktop'] }, url: 'https://example.com/second' },
    ],
    variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }],
  });
  assert.equal(await where(link.slug, { 'user-agent': UA.iphone }), 'myapp://open/42');
  assert.equal(await where(link.slug, { 'user-agent': UA.android }), 'https://play.example.com/store/apps/details?id=com.example');
  assert.equal(await where(link.slug, { 'user-agent': UA.chromeMac }), 'https://example.com/second');
  // A tablet that is neither iOS nor Android matches no rule: the split decides.
  const r = await resolve(t, link.id, { device: 'tablet', os: 'Windows' });
  assert.match(r.target, /^variant:[01]$/);
  assert.equal((await resolve(t, link.id, { ua: UA.iphone })).target, 'ios');
  assert.equal((await resolve(t, link.id, { ua: UA.chromeMac })).target, 'rule:1');
});

test('A/B: weighted within tolerance over 300 visitors, and each visitor keeps their variant', async () => {
  const t = await team();
  const link = await newLink(t, { variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }] });
  const counts = { a: 0, b: 0 };
  const firstPick = new Map<string, string>();
  for (let i = 0; i < 300; i++) {
    const ip = `10.${(i >> 8) & 255}.${i & 255}.7`;
    const loc = String(await where(link.slug, { 'x-forwarded-for': ip }));
    counts[loc.endsWith('/a') ? 'a' : 'b']++;
    firstPick.set(ip, loc);
  }
  // 50/50 over 300: mean 150, standard deviation ~8.7; 45 either way is more than 5 of them.
  assert.ok(counts.a >= 105 && counts.a <= 195, `a=${counts.a} b=${counts.b}`);
  for (const ip of [...firstPick.keys()].slice(0, 20)) {
    assert.equal(await where(link.slug, { 'x-forwarded-for': ip }), firstPick.get(ip), `visitor ${ip} keeps their variant`);
  }
  // A 90/10 split leans as weighted.
  const skewed = await newLink(t, { variants: [{ url: 'https://example.com/a', weight: 90 }, { url: 'https://example.com/b', weight: 10 }] });
  let a = 0;
  for (let i = 0; i < 200; i++) if (String(await where(skewed.slug, { 'x-forwarded-for': `10.9.${i}.1` })).endsWith('/a')) a++;
  // mean 180, sd ~4.2
  assert.ok(a >= 155 && a <= 200, `a=${a} of 200`);
});

test('link-preview crawlers of each family get the card (escaped, no redirect); people and other bots get the redirect', async () => {
  const t = await team();
  const link = await newLink(t, SMART);
  const crawlers = {
    slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', // no-egress-check: a crawler's User-Agent, never contacted
    twitter: 'Twitterbot/1.0',
    facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', // no-egress-check: a crawler's User-Agent, never contacted
    linkedin: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)', // no-egress-check: a crawler's User-Agent, never contacted
    discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', // no-egress-check: a crawler's User-Agent, never contacted
    whatsapp: 'WhatsApp/2.23.20.0 A',
    telegram: 'TelegramBot (like TwitterBot)',
    imessage: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  };
  for (const [family, ua] of Object.entries(crawlers)) {
    for (let i = 0; i < 2; i++) { // the second visit is served from the cache
      const res = await visit(`/${link.slug}`, { headers: { 'user-agent': ua } });
      assert.equal(res.status, 200, family);
      assert.equal(res.headers.get('location'), null, family);
      assert.match(String(res.headers.get('content-type')), /text\/html/);
      const html = await res.text();
      assert.match(html, /<meta property="og:title" content="Launch &lt;day&gt;">/, family);
      assert.match(html, /<meta property="og:description" content="All the &quot;news&quot;">/, family);
      assert.match(html, /<meta property="og:image" content="https:\/\/cdn\.example\.com\/card\.png">/, family);
      assert.match(html, /<meta name="twitter:card" content="summary_large_image">/, family);
      assert.match(html, /<meta name="twitter:title" content="Launch &lt;day&gt;">/, family);
      assert.doesNotMatch(html, /<day>|example\.com\/default|http-equiv/, family);
    }
  }
  assert.equal((await visit(`/${link.slug}`, { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } })).status, 302);
  assert.equal((await visit(`/${link.slug}`)).status, 302);
  // Without a preview, crawlers follow the redirect like everyone.
  const plain = await newLink(t, { rules: SMART.rules });
  assert.equal((await visit(`/${plain.slug}`, { headers: { 'user-agent': crawlers.slack } })).status, 302);
});

test('resolve: default with no parameters, each fact, at, ua, and why; records nothing', async () => {
  const t = await team();
  const link = await newLink(t, {
    rules: [
      { when: { country: 'DE', device: 'mobile' }, url: 'https://example.com/de-mobile' },
      { when: { language: 'fr' }, url: 'https://example.com/fr' },
      { when: { browser: 'Firefox', os: 'Linux' }, url: 'https://example.com/fx' },
      { when: { after: '2030-01-01T00:00:00.000Z' }, url: 'https://example.com/2030' },
    ],
  });
  assert.deepEqual(await resolve(t, link.id), { url: 'https://example.com/default', target: 'default', reason: 'no rule matched: the link\'s url' });
  const de = await resolve(t, link.id, { country: 'de', ua: UA.android });
  assert.equal(de.url, 'https://example.com/de-mobile');
  assert.equal(de.target, 'rule:0');
  assert.match(de.reason, /rules\[0\].*country DE.*device mobile/);
  assert.equal((await resolve(t, link.id, { country: 'DE', device: 'desktop' })).target, 'default');
  assert.equal((await resolve(t, link.id, { language: 'fr-FR,en;q=0.5' })).target, 'rule:1');
  assert.equal((await resolve(t, link.id, { ua: UA.firefox })).target, 'rule:2');
  assert.equal((await resolve(t, link.id, { browser: 'firefox', os: 'linux' })).target, 'rule:2');
  assert.equal((await resolve(t, link.id, { at: '2030-06-01T00:00:00.000Z' })).target, 'rule:3');
  await fails(t.api, 'resolveLink', { params: { workspaceId: t.workspaceId, linkId: link.id }, query: { device: 'phone' as never } }, 'VALIDATION_ERROR');
  await fails(t.api, 'resolveLink', { params: { workspaceId: t.workspaceId, linkId: link.id }, query: { at: 'tomorrow' } }, 'VALIDATION_ERROR');
  await fails(t.api, 'resolveLink', { params: { workspaceId: t.workspaceId, linkId: 'lnk_0000000000000000none' } }, 'NOT_FOUND');
  // A variant link: with the visitor's address, the variant the redirector gives them today.
  const ab = await newLink(t, { variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }] });
  for (const ip of ['10.1.2.3', '10.4.5.6', '10.7.8.9']) {
    const r = await resolve(t, ab.id, { ip, ua: BROWSER_UA.desktopChrome });
    assert.equal(await where(ab.slug, { 'x-forwarded-for': ip }), r.url);
    assert.match(r.reason, /A\/B split 50\/50/);
  }
  const after = (await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: link.id } })).data;
  assert.equal(after.clicks, 0, 'resolve records no visit');
});

test('changing rules takes effect on the next visit', async () => {
  const t = await team();
  const link = await newLink(t, { rules: [{ when: { language: 'de' }, url: 'https://example.com/de' }] });
  const de = { 'accept-language': 'de' };
  assert.equal(await where(link.slug, de), 'https://example.com/de');
  assert.equal(await where(link.slug, de), 'https://example.com/de');
  await t.api.call('updateLink', { params: { workspaceId: t.workspaceId, linkId: link.id }, body: { rules: [{ when: { language: 'de' }, url: 'https://example.com/neu' }] } });
  assert.equal(await where(link.slug, de), 'https://example.com/neu');
  await t.api.call('updateLink', { params: { workspaceId: t.workspaceId, linkId: link.id }, body: { rules: null } });
  assert.equal(await where(link.slug, de), 'https://example.com/default');
});

test('password, expiry and click limits apply before any of it', async () => {
  const t = await team('pro');
  const link = await newLink(t, { password: 'open sesame!', rules: [{ when: { language: 'de' }, url: 'https://example.com/de' }], preview: SMART.preview });
  const form = await visit(`/${link.slug}`, { headers: { 'accept-language': 'de', 'user-agent': 'Slackbot-LinkExpanding 1.0' } });
  assert.equal(form.status, 200);
  assert.match(await form.text(), /password/i);
  const limited = await newLink(t, { maxClicks: 1, rules: [{ when: { language: 'de' }, url: 'https://example.com/de' }] });
  assert.equal(await where(limited.slug, { 'accept-language': 'de' }), 'https://example.com/de');
  assert.equal((await visit(`/${limited.slug}`, { headers: { 'accept-language': 'de' } })).status, 410);
  const r = await resolve(t, limited.id, { language: 'de' });
  assert.equal(r.url, null);
  assert.match(r.reason, /click limit/);
});

test('each click records which target served it: analytics groupBy=target', async () => {
  const t = await team();
  const link = await newLink(t, { ios: 'myapp://open', rules: [{ when: { language: 'de' }, url: 'https://example.com/de' }] });
  await where(link.slug, { 'accept-language': 'de' });
  await where(link.slug, { 'accept-language': 'de', 'x-forwarded-for': '10.0.0.2' });
  await where(link.slug, { 'user-agent': UA.iphone });
  await where(link.slug, { 'user-agent': UA.firefox });
  const params = { workspaceId: t.workspaceId, linkId: link.id };
  const groups = await eventually(async () => {
    const { data } = await t.api.call('getLinkAnalytics', { params, query: { groupBy: 'target' } });
    return data.totalClicks >= 4 ? data.groups : undefined;
  }, 10_000, 'four clicks in analytics');
  const byKey = Object.fromEntries((groups ?? []).map((g) => [g.key, g.clicks]));
  assert.deepEqual(byKey, { 'rule:0': 2, ios: 1, default: 1 });
});
