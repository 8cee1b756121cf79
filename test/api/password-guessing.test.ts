// Account passwords (docs/api.md, Access): /v1/auth/login and the OAuth sign-in form share one limiter:
// 30 checks a minute per address, and 10 wrong passwords in 15 minutes lock the account for 15
// minutes, the right password included. Slow hashes run in bounded lanes, so a flood of guesses
// on link passwords never queues in front of a person logging in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, API_URL, anonymous, client, signup, team, unique } from '../helpers/api.js';
import { authorizeSession, authorizeUrl, CLI_CLIENT, pkce } from '../helpers/oauth.js';
import { startServer } from '../helpers/start-server.mjs';

/** A client address of the test's own (the test servers trust X-Forwarded-For from loopback). */
const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;

const login = (email: string, password: string, ip: string, baseUrl = API_URL) =>
  client({}, baseUrl).raw('POST', '/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });

/** The OAuth sign-in form, opened from `ip`. */
async function oauthForm(ip: string, baseUrl = API_URL) {
  const s = authorizeSession(authorizeUrl({ clientId: CLI_CLIENT, redirectUri: 'http://127.0.0.1:40000/callback', challenge: pkce().challenge }, baseUrl), {
    'x-forwarded-for': ip,
  });
  assert.equal((await s.get()).status, 200);
  return s;
}

test('60 wrong passwords on the OAuth form: the 11th check is refused for 15 minutes, and the right password then gets no session', async () => {
  const a = await signup();
  const ip = randomIp();
  const s = await oauthForm(ip);
  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) statuses.push((await s.login({ email: a.email, password: `wrong guess ${i}` })).status);
  assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401), 'ten wrong passwords are checked');
  assert.deepEqual(statuses.slice(10), Array(50).fill(429), 'then the account is locked');

  const right = await s.login(a);
  assert.equal(right.status, 429, 'the right password is refused too while locked');
  assert.match(right.text, /Too many sign-in attempts/);
  const retryAfter = Number(right.headers.get('retry-after'));
  assert.ok(retryAfter > 14 * 60 && retryAfter <= 15 * 60, `Retry-After ${retryAfter} s`);
  assert.equal(s.jar.cookies.get('hop_oauth_session'), undefined, 'no session cookie');

  // The same limiter guards the API, from any address: the lock is the account's.
  const api = await login(a.email, a.password, randomIp());
  assert.equal(api.status, 429);
  assert.equal((api.body as { error: { code: string } }).error.code, 'RATE_LIMIT_EXCEEDED');
  assert.ok(Number(api.headers['retry-after']) > 14 * 60);
  // Another account is not affected.
  const b = await signup();
  assert.equal((await login(b.email, b.password, ip)).status, 200);
});

test('the form and /v1/auth/login count on one account window; a right password is no failure', async () => {
  const a = await signup();
  for (let i = 0; i < 5; i++) assert.equal((await login(a.email, `nope ${i}`, randomIp())).status, 401);
  assert.equal((await login(a.email, a.password, randomIp())).status, 200, 'a right password in between');
  const s = await oauthForm(randomIp());
  for (let i = 0; i < 5; i++) assert.equal((await s.login({ email: a.email, password: `nope ${i}` })).status, 401);
  assert.equal((await s.login(a)).status, 429, 'five failures on each make ten: locked');
  assert.equal((await login(a.email, a.password, randomIp())).status, 429);
});

test('unknown e-mails lock like real ones (a lockout says nothing about who has an account)', async () => {
  const email = `${unique('nobody')}@example.test`;
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) statuses.push((await login(email, `guess ${i}`, randomIp())).status);
  assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
});

test('at most 30 password checks a minute per address, across the form and /v1/auth/login', async () => {
  // The real per-address limits (the shared test server runs them 1000 times looser).
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-pw-'));
  const server = await startServer({ dataDir, env: { HOP_RATE_LIMIT_SCALE: '1', HOP_TRUST_PROXY: '127.0.0.1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
  try {
    const ip = randomIp();
    // Start early in a minute, so that the API's own per-address window does not reset halfway.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 30_000) await new Promise((r) => setTimeout(r, left + 100));
    // Different unknown accounts, so that no account lockout plays a part: only the address counts.
    for (let i = 0; i < 15; i++) assert.equal((await login(`${unique('x')}@example.test`, 'guess', ip, server.url)).status, 401);
    const s = await oauthForm(ip, server.url);
    for (let i = 0; i < 15; i++) assert.equal((await s.login({ email: `${unique('y')}@example.test`, password: 'guess' })).status, 401, `form check ${i}`);
    const form31 = await s.login({ email: `${unique('z')}@example.test`, password: 'guess' });
    assert.equal(form31.status, 429, 'the 31st check in a minute, on the form');
    const retryAfter = Number(form31.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal((await login(`${unique('z')}@example.test`, 'guess', ip, server.url)).status, 429, 'and on the API');
    // Another address is not held back.
    assert.equal((await login(`${unique('z')}@example.test`, 'guess', randomIp(), server.url)).status, 401);
  } finally {
    assert.equal(await server.stop(), 0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a flood of link-password guesses does not queue in front of a log-in', async () => {
  const t = await team('pro');
  const password = 'flood link password';
  const links = await Promise.all(Array.from({ length: 12 }, (_, i) =>
    t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: `https://example.com/flood/${i}`, password } })));
  const order: string[] = [];
  // 5 wrong guesses per link (all checked: none is locked out before its fifth): 60 slow hashes.
  const guesses = links.flatMap(({ data: link }) => Array.from({ length: 5 }, () => {
    const ip = randomIp();
    return fetch(`${API_URL}/${link.slug}`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
      body: 'password=wrong',
    }).then(async (res) => {
      await res.arrayBuffer();
      order.push(`guess ${res.status}`);
    });
  }));
  // The first answers mean the flood's hashes are queued: now a person logs in.
  while (order.length < 2) await new Promise((r) => setTimeout(r, 5));
  const loggedIn = anonymous.raw('POST', '/v1/auth/login', { body: { email: t.email, password: t.password }, headers: { 'x-forwarded-for': randomIp() } })
    .then((res) => order.push(`login ${res.status}`));
  await Promise.all([...guesses, loggedIn]);
  const at = order.indexOf('login 200');
  assert.ok(at >= 0, order.join(', '));
  assert.equal(order.filter((o) => o === 'guess 401').length, 60, 'every guess was checked');
  // Before hashes ran in lanes, the log-in's hash waited behind every queued guess (answered last).
  assert.ok(at < 30, `the log-in was answered after ${at} of 60 guesses`);
});
