// Guessing limits at real (unscaled) rates on a server of this test's own: device-flow user codes
// per address and per user, device authorizations per address and client, CI ID token exchanges
// and the metrics token per address. Addresses are the test's own (the server trusts X-Forwarded-For from loopback). Its
// own embedded database too: on a shared PostgreSQL every unscaled server of the run counts
// 127.0.0.1's sign-ups and the same per-address windows together.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomAddress, signup } from '../helpers/api.js';
import { ID_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE } from '@hop/shared';
import { authorizeSession, CLI_CLIENT, deviceCode } from '../helpers/oauth.js';
import { startServer } from '../helpers/start-server.mjs';
import { awayFromWindowEdge } from '../helpers/rate-limit-window.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

let server: Awaited<ReturnType<typeof startServer>>;

before(async () => {
  server = await startServer({ dataDir: scratchDir('hop-abuse-'), env: { DATABASE_URL: '', HOP_RATE_LIMIT_SCALE: '1', HOP_TRUST_PROXY: '127.0.0.1' } });
});

after(async () => {
  assert.equal(await server.stop(), 0);
});

/** A user signed in on the device page from `ip`. */
async function devicePage(ip: string) {
  const account = await signup(server.url);
  const s = authorizeSession(`${server.url}/v1/oauth/device`, { 'x-forwarded-for': ip });
  await s.get();
  assert.equal((await s.login(account)).status, 303);
  return s;
}

const wrongCode = (s: Awaited<ReturnType<typeof devicePage>>) => s.post({ csrf: s.csrf, action: 'code', user_code: 'BCDF-GHJK' });

test('wrong device user codes: 5 a minute per address and per user, then 429 whatever the code', async () => {
  await awayFromWindowEdge(); // the count to the limit within one minute's window
  const ip = randomAddress();
  const s = await devicePage(ip);
  for (let i = 0; i < 5; i++) assert.equal((await wrongCode(s)).status, 400, `wrong code ${i + 1}`);
  const refused = await wrongCode(s);
  assert.equal(refused.status, 429);
  assert.match(refused.text, /Too many wrong codes/);
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  // A real code is refused too while the window is spent: no more looking up.
  const real = (await deviceCode(CLI_CLIENT, undefined, server.url)).body as Record<string, string>;
  assert.equal((await s.post({ csrf: s.csrf, action: 'code', user_code: real.user_code })).status, 429);
  const viaQuery = await fetch(`${server.url}/v1/oauth/device?user_code=BCDF-GHJK`, { headers: { cookie: s.jar.header(), 'x-forwarded-for': ip } });
  assert.equal(viaQuery.status, 429, 'the prefilled link counts the same');

  // Another user at the same address: the address is spent.
  assert.equal((await wrongCode(await devicePage(ip))).status, 429);
  // The same user elsewhere: the user is spent (the session cookie goes along).
  const moved = authorizeSession(`${server.url}/v1/oauth/device`, { 'x-forwarded-for': randomAddress() });
  for (const [k, v] of s.jar.cookies) moved.jar.cookies.set(k, v);
  await moved.get();
  assert.equal((await wrongCode(moved)).status, 429);
  // Someone else, somewhere else, is not held up.
  assert.equal((await wrongCode(await devicePage(randomAddress()))).status, 400);
});

test('POST /device/code: 10 a minute per address and client, answered 429 slow_down with Retry-After', async () => {
  await awayFromWindowEdge(); // the count to the limit within one minute's window
  const ip = randomAddress();
  const start = () => fetch(`${server.url}/v1/oauth/device/code`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip }, body: `client_id=${CLI_CLIENT}`,
  });
  for (let i = 0; i < 10; i++) assert.equal((await start()).status, 200, `start ${i + 1}`);
  const refused = await start();
  assert.equal(refused.status, 429);
  assert.equal((await refused.json()).error, 'slow_down');
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  assert.equal((await deviceCode(CLI_CLIENT, undefined, server.url)).status, 200, 'another address is not held up');
});

test('CI ID token exchanges: 60 a minute per address, answered 429 with Retry-After before the token is read', async () => {
  await awayFromWindowEdge(); // the count to the limit within one minute's window
  const ip = randomAddress();
  const exchange = (from = ip) => fetch(`${server.url}/v1/oauth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from },
    body: new URLSearchParams({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token_type: ID_TOKEN_TYPE, subject_token: 'not.a.jwt' }).toString(),
  });
  for (let i = 0; i < 60; i++) assert.equal((await exchange()).status, 401, `exchange ${i + 1}: a refused token`);
  const refused = await exchange();
  assert.equal(refused.status, 429);
  const body = await refused.json();
  assert.equal(body.error, 'invalid_request');
  assert.match(body.error_description, /too many token exchanges/);
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  assert.equal((await exchange(randomAddress())).status, 401, 'another address is not held up');
});

test('metrics token guesses: 30 a minute per address, then 429 even for the right token', async () => {
  await awayFromWindowEdge(); // the count to the limit within one minute's window
  const ip = randomAddress();
  const scrape = (token: string, from = ip) => fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': from } });
  for (let i = 0; i < 30; i++) assert.equal((await scrape(`guess-${i}`)).status, 401, `guess ${i + 1}`);
  const token = process.env.HOP_TEST_METRICS_TOKEN ?? '';
  const refused = await scrape(token);
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('x-content-type-options'), 'nosniff');
  assert.equal((await scrape(token, randomAddress())).status, 200, 'the right token from another address');
});

test('a sign-in on the OAuth form answers once: no "reply already sent" in the log', async () => {
  const s = await devicePage(randomAddress());
  assert.equal((await s.login({ email: 'nobody@example.test', password: 'wrong' })).status, 401);
  // Another round trip, so that a handler still running after its answer would have logged by now.
  assert.equal((await s.get()).status, 200);
  assert.doesNotMatch(server.output(), /FST_ERR_REP_ALREADY_SENT|already sent/i);
});
