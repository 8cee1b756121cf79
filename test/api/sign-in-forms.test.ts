// The OAuth and device sign-in forms take the same fields as /v1/auth/login, count wrong passwords
// on the account found, stop at their answer (a failed sign-in never goes on to a decision posted
// with it), and their consent pages say who asks and what is approved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, client, randomAddress, team, unique, type Team } from '../helpers/api.js';
import { authorizeSession, authorizeUrl, CLI_CLIENT, deviceCode, oauthPost, pkce } from '../helpers/oauth.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const REDIRECT = 'http://127.0.0.1:45999/callback';

/** A team whose e-mail holds an `i`, to be spelled with a dotted capital I (U+0130). */
async function victim(): Promise<Team & { dotted: string }> {
  const email = `victim-${unique()}@example.test`;
  const password = 'correct horse battery';
  const { data } = await client().call('signup', { body: { email, password, name: 'Victim' } });
  const api = client({ token: data.token });
  const { data: ws } = await api.call('createWorkspace', { body: { name: 'Victim Workspace', slug: unique('ws-') } });
  return { userId: data.user.id, email, password, token: data.token, api, workspaceId: ws.id, slug: ws.slug, dotted: email.replace('i', '\u0130') };
}

const apiLogin = (email: string, password: string) =>
  client().raw('POST', '/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': randomAddress() } });

const cliAuthorize = () => authorizeUrl({ clientId: CLI_CLIENT, redirectUri: REDIRECT, challenge: pkce().challenge, state: 's' });

test('a locked account stays locked on the OAuth and device forms, whatever the spelling of its e-mail', async () => {
  const v = await victim();
  for (let i = 0; i < 10; i++) assert.equal((await apiLogin(v.email, `wrong ${i}`)).status, 401);
  assert.equal((await apiLogin(v.email, v.password)).status, 429, 'locked');

  for (const url of [cliAuthorize(), `${API_URL}/v1/oauth/device`]) {
    const s = authorizeSession(url, { 'x-forwarded-for': randomAddress() });
    assert.equal((await s.get()).status, 200);
    // U+0130 lower-cases to "i̇" in JavaScript and to "i" in the database: the form refuses the
    // address as /v1/auth/login does, so it never opens a window of its own.
    const dotted = await s.login({ email: v.dotted, password: 'another guess' });
    assert.equal(dotted.status, 400, `${url}: ${dotted.text.slice(0, 200)}`);
    assert.match(dotted.text, /email/i);
    const right = await s.login({ email: v.dotted, password: v.password });
    assert.equal(right.status, 400);
    assert.equal(s.jar.cookies.get('hop_oauth_session'), undefined, 'no session');
    const plain = await s.login({ email: v.email.toUpperCase(), password: v.password });
    assert.equal(plain.status, 429, 'any accepted spelling is the same locked account');
  }
  assert.equal((await apiLogin(v.dotted, v.password)).status, 400, 'the API refuses the spelling as well');
});

test('the sign-in forms refuse a NUL or an e-mail that is no address with 400, never 500', async () => {
  for (const url of [cliAuthorize(), `${API_URL}/v1/oauth/device`]) {
    const s = authorizeSession(url, { 'x-forwarded-for': randomAddress() });
    await s.get();
    for (const form of [
      { action: 'login', email: '\u0000', password: 'x' },
      { action: 'login', email: 'a@example.test', password: 'pass\u0000word' },
      { action: 'login', email: 'not an address', password: 'x' },
      { action: 'signup', email: 'n@example.test', password: 'long enough pw', name: 'Nul\u0000Name' },
    ]) {
      const res = await s.post({ csrf: s.csrf, ...form });
      assert.equal(res.status, 400, `${url} ${JSON.stringify(form)}: ${res.text.slice(0, 200)}`);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.match(res.text, /role="alert"/);
    }
  }
});

test('a wrong password posted with a decision answers 401 and decides nothing', async () => {
  const t = await team();
  // The device flow: the browser is signed in already (the cookie), and the post signs in again with a wrong password.
  const start = await deviceCode();
  const grant = start.body as Record<string, string>;
  const s = authorizeSession(String(grant.verification_uri_complete), { 'x-forwarded-for': randomAddress() });
  await s.get();
  assert.equal((await s.login(t)).status, 303);
  assert.match((await s.get()).text, /Approve/);
  const sneaky = await s.post({
    csrf: s.csrf, action: 'login', email: t.email, password: 'not the password', decision: 'approve', user_code: grant.user_code, workspace: t.workspaceId,
  });
  assert.equal(sneaky.status, 401);
  assert.match(sneaky.text, /Wrong e-mail or password/);
  assert.doesNotMatch(sneaky.text, /Device connected/);
  // The code is still pending: its consent page still shows (a handler that ran on after its
  // answer had approved it by now, and this page would call the code used).
  const still = await s.get();
  assert.equal(still.status, 200, still.text.slice(0, 200));
  assert.match(still.text, /Approve/);
  const poll = await oauthPost('token', { grant_type: DEVICE_GRANT, device_code: grant.device_code, client_id: CLI_CLIENT });
  assert.equal(poll.body.error, 'authorization_pending', 'the device was not approved');

  // The authorization code flow: no code is issued either.
  const a = authorizeSession(cliAuthorize(), { 'x-forwarded-for': randomAddress() });
  await a.get();
  assert.equal((await a.login(t)).status, 303);
  const again = await a.post({ csrf: a.csrf, action: 'login', email: t.email, password: 'not the password', decision: 'approve', workspace: t.workspaceId });
  assert.equal(again.status, 401);
  assert.equal(again.location, null, 'no redirect with a code');
  // Signed in already, this browser's next decision is its own: it still gets the consent page.
  assert.match((await a.get()).text, /Approve/);
});

test('the consent page names a third-party client\'s workspace and redirect host, so it cannot pass as the CLI', async () => {
  const owner = await team();
  const { data: impostor } = await owner.api.call('createOAuthClient', {
    params: { workspaceId: owner.workspaceId }, body: { name: 'Hop CLI', type: 'public', redirectUris: ['https://collector.example.test/cb'] },
  });
  const user = await team();
  const s = authorizeSession(authorizeUrl({ clientId: impostor.id, redirectUri: 'https://collector.example.test/cb', scope: 'links:read', challenge: pkce().challenge }),
    { 'x-forwarded-for': randomAddress() });
  const first = await s.get();
  assert.equal(first.status, 200, first.location ?? first.text.slice(0, 200));
  assert.equal((await s.login(user)).status, 303);
  const consent = (await s.get()).text;
  assert.match(consent, /registered by the workspace <strong>Test Workspace<\/strong> \(ws-[0-9a-f]+\), not by Hop/);
  assert.match(consent, /sent to <strong>collector\.example\.test<\/strong>/);
  assert.doesNotMatch(consent, /built into Hop/);

  const cli = authorizeSession(cliAuthorize(), { 'x-forwarded-for': randomAddress() });
  await cli.get();
  await cli.login(user);
  const own = (await cli.get()).text;
  assert.match(own, /<strong>Hop CLI<\/strong>, built into Hop/);
  assert.match(own, /sent to <strong>127\.0\.0\.1:45999<\/strong>/);
});

test('the device consent page shows the code being approved and warns against codes someone else sent', async () => {
  const t = await team();
  const grant = (await deviceCode()).body as Record<string, string>;
  const s = authorizeSession(String(grant.verification_uri_complete), { 'x-forwarded-for': randomAddress() });
  await s.get();
  await s.login(t);
  const consent = (await s.get()).text;
  assert.ok(consent.includes(`<code>${grant.user_code}</code>`), 'the code, as the device shows it');
  assert.match(consent, /If someone sent you this code or link, deny/);
});

test('the OAuth and device pages wear the dashboard\'s stylesheet and icon; sign-in links to the forgot-password page', async () => {
  // The dashboard's own stylesheet, as its HTML names it.
  const app = (await client().raw('GET', '/app/')).text;
  const cssName = /<link rel="stylesheet"[^>]*href="\.\/assets\/([^"]+\.css)"/.exec(app)?.[1];
  assert.ok(cssName, 'the dashboard names its stylesheet');
  const css = (await client().raw('GET', `/app/assets/${cssName}`)).text;
  for (const url of [cliAuthorize(), `${API_URL}/v1/oauth/device`]) {
    const page = await authorizeSession(url, { 'x-forwarded-for': randomAddress() }).get();
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(`<style>${css}`), `${url} carries the dashboard's stylesheet`);
    assert.match(page.text, /<link rel="icon" href="data:image\/svg\+xml;base64,/);
    assert.match(page.text, /<header class="top">/);
    // Still a page that loads nothing: the stylesheet and icon are inline.
    assert.match(String(page.headers.get('content-security-policy')), /default-src 'none'/);
  }
  const signIn = await authorizeSession(cliAuthorize(), { 'x-forwarded-for': randomAddress() }).get();
  // The dashboard's address (HOP_DASHBOARD_URL, by default {base_url}/app) and its page.
  assert.match(signIn.text, /<a href="http:\/\/[^"/]+\/app\/forgot-password">Forgot password\?<\/a>/);
});
