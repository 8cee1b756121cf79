// The URL kinds of urls.ts at their edges: z.url() trims any whitespace and strips tabs and
// newlines, where the URL parser itself drops only ASCII spaces and controls at the ends; each
// kind must accept and refuse exactly what its fields always did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { absoluteUrl, DestinationUrlSchema, HttpsUrlSchema, HttpUrlSettingSchema, isHttpUrl, RedirectUriSchema } from './urls.js';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? [] : r.error!.issues.map((i) => i.message));

test('a destination is http(s) written with //, normalised, without controls or backslashes', () => {
  assert.equal(DestinationUrlSchema.parse('HTTPS://Example.COM:443/a/../b'), 'https://example.com/b');
  assert.equal(DestinationUrlSchema.parse('https://example.com/x '), 'https://example.com/x', 'trailing space: the parser drops it');
  for (const bad of [' https://example.com', '\u00a0https://example.com', 'https://example.com\u00a0', 'http:example.com', 'ftp://example.com', 'https://', 'example.com']) {
    assert.deepEqual(messages(DestinationUrlSchema.safeParse(bad)), ['must be an absolute http or https URL'], JSON.stringify(bad));
  }
  assert.deepEqual(messages(DestinationUrlSchema.safeParse('https://exa\nmple.com')), ['may not contain control characters (such as CR or LF)']);
  assert.deepEqual(messages(DestinationUrlSchema.safeParse('\u0001https://example.com')),
    ['may not contain control characters (such as CR or LF)', 'must be an absolute http or https URL']);
  assert.deepEqual(messages(DestinationUrlSchema.safeParse('https://example.com\\a')), ['may not contain a backslash']);
});

test('isHttpUrl: from the first character, with a host', () => {
  assert.equal(isHttpUrl('https://example.com'), true);
  assert.equal(isHttpUrl('https://example.com\u0001'), true, 'the parser drops a trailing control');
  assert.equal(isHttpUrl(' https://example.com'), false);
  assert.equal(isHttpUrl('https:example.com'), false);
  assert.equal(isHttpUrl('myapp://open'), false);
});

test('an https URL is kept as written; the parser decides what it reads', () => {
  assert.equal(HttpsUrlSchema.parse('  https://cdn.example.com/a.png'), '  https://cdn.example.com/a.png');
  assert.equal(HttpsUrlSchema.safeParse('https:cdn.example.com/a.png').success, true);
  assert.equal(HttpsUrlSchema.safeParse('https://cdn.example.com/a.png\u00a0').success, true, 'a no-break space ending the path is encoded');
  for (const bad of ['http://cdn.example.com/a.png', 'https://cdn.example.com\u00a0', 'nope']) {
    assert.deepEqual(messages(HttpsUrlSchema.safeParse(bad)), ['must be an https URL'], JSON.stringify(bad));
  }
});

test('any absolute URL, and an operator setting written http(s)://', () => {
  assert.equal(absoluteUrl().safeParse('mailto:someone@example.com').success, true);
  assert.equal(absoluteUrl().safeParse('not a url').success, false);
  assert.equal(absoluteUrl().safeParse(`https://example.com/${'a'.repeat(2048)}`).success, false);
  assert.equal(HttpUrlSettingSchema.safeParse('http://127.0.0.1:3000').success, true);
  assert.deepEqual(messages(HttpUrlSettingSchema.safeParse('ftp://example.com')), ['must be an http(s) URL']);
});

test('a redirect URI: https, http on loopback, or a private-use scheme; never a fragment', () => {
  for (const ok of ['https://app.example.com/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'http://localhost/cb', 'com.example.app:/callback']) {
    assert.equal(RedirectUriSchema.safeParse(ok).success, true, ok);
  }
  assert.equal(RedirectUriSchema.safeParse('https://app.example.com/cb\u00a0').success, true, 'a no-break space ending the path is encoded');
  for (const bad of ['http://example.com/cb', 'https://app.example.com/cb#x', 'myapp:/cb', 'https://app.example.com\u00a0/cb', 'nope']) {
    assert.equal(RedirectUriSchema.safeParse(bad).success, false, bad);
  }
});
