// Every HTML page (docs/api.md, Operating the server) carries a Content-Security-Policy, X-Frame-Options: DENY,
// X-Content-Type-Options: nosniff and a Referrer-Policy: the redirector's password form and its
// 404/429 pages, the OAuth pages and /docs. The 410 page of an expired link is checked where the
// clock can be moved (test/in-process/expiry.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, BROWSER_UA, team } from '../helpers/api.js';
import { authorizeUrl, CLI_CLIENT, pkce } from '../helpers/oauth.js';

const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;

function assertSecured(res: Response, what: string, csp: RegExp = /default-src 'none'/) {
  assert.match(String(res.headers.get('content-type')), /^text\/html/, `${what}: an HTML page`);
  assert.match(String(res.headers.get('content-security-policy')), csp, `${what}: Content-Security-Policy`);
  assert.match(String(res.headers.get('content-security-policy')), /frame-ancestors 'none'/, `${what}: never framed`);
  assert.equal(res.headers.get('x-frame-options'), 'DENY', `${what}: X-Frame-Options`);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${what}: X-Content-Type-Options`);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer', `${what}: Referrer-Policy`);
}

const page = (path: string, init: RequestInit = {}) =>
  fetch(`${API_URL}${path}`, { redirect: 'manual', ...init, headers: { accept: 'text/html', 'user-agent': BROWSER_UA.desktopChrome, ...init.headers } });

test('the redirector\'s pages: password form (200 and 401), 404 and the 429 lockout page', async () => {
  const t = await team('pro');
  const ws = { workspaceId: t.workspaceId };
  const { data: locked } = await t.api.call('createLink', { params: ws, body: { url: 'https://example.com/hdr-secret', password: 'right one' } });

  assertSecured(await page(`/${locked.slug}`), 'password form');
  const ip = randomIp();
  const wrong = (n: number) => page(`/${locked.slug}`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip }, body: `password=wrong-${n}`,
  });
  const first = await wrong(0);
  assert.equal(first.status, 401);
  assertSecured(first, 'password form after a wrong password');
  for (let i = 1; i < 4; i++) await (await wrong(i)).arrayBuffer();
  const lockedOut = await wrong(4);
  assert.equal(lockedOut.status, 429);
  assertSecured(lockedOut, '429 page');

  const missing = await page('/no-such-link-anywhere');
  assert.equal(missing.status, 404);
  assertSecured(missing, '404 page');
});

test('the OAuth pages: sign-in, and the error page of a request that cannot be redirected', async () => {
  const url = new URL(authorizeUrl({ clientId: CLI_CLIENT, redirectUri: 'http://127.0.0.1:40000/callback', challenge: pkce().challenge }));
  const signIn = await page(url.pathname + url.search);
  assert.equal(signIn.status, 200);
  assertSecured(signIn, 'OAuth sign-in');
  assert.equal(signIn.headers.get('cache-control'), 'no-store');
  const bad = await page('/v1/oauth/authorize?response_type=code&client_id=no-such-client&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb');
  assert.equal(bad.status, 400);
  assertSecured(bad, 'OAuth error page');
});

test('/docs, an application, gets a policy that lets its own scripts run and nothing else', async () => {
  const res = await page('/docs/');
  assert.equal(res.status, 200);
  assertSecured(res, '/docs', /script-src 'self'/);
  assert.doesNotMatch(String(res.headers.get('content-security-policy')), /unsafe-eval|script-src[^;]*unsafe-inline/);
});

test('JSON answers get no page policy, but every one is nosniff: success, error, 404, OAuth and the openapi document', async () => {
  const t = await team();
  const answers: [string, Response][] = [
    ['healthz', await fetch(`${API_URL}/healthz`)],
    ['a success', await fetch(`${API_URL}/v1/me`, { headers: { authorization: `Bearer ${t.token}` } })],
    ['a 401', await fetch(`${API_URL}/v1/me`)],
    ['a 400', await fetch(`${API_URL}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' })],
    ['an unknown route', await fetch(`${API_URL}/v1/no-such-route`)],
    ['the OAuth metadata', await fetch(`${API_URL}/.well-known/oauth-authorization-server`)],
    ['a token error', await fetch(`${API_URL}/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=x' })],
    ['the OpenAPI document', await fetch(`${API_URL}/v1/openapi.json`)],
  ];
  for (const [what, res] of answers) {
    assert.match(String(res.headers.get('content-type')), /json/, `${what}: JSON (${res.status})`);
    assert.equal(res.headers.get('content-security-policy'), null, what);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${what}: X-Content-Type-Options`);
    await res.arrayBuffer();
  }
});
