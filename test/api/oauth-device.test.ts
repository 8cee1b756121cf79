// RFC 8628 device flow (docs/cli.md), the CLI's own grant acting in every workspace of the user,
// and sign-up inside the OAuth pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_URL, client, team, unique } from '../helpers/api.js';
import { CLI_CLIENT, approveDevice, authorizeSession, authorizeUrl, deviceCode, oauthPost, pkce } from '../helpers/oauth.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

test('the metadata advertises the device authorization endpoint and grant', async () => {
  const meta = await (await fetch(`${API_URL}/.well-known/oauth-authorization-server`)).json();
  assert.equal(meta.device_authorization_endpoint, `${meta.issuer}/v1/oauth/device/code`);
  assert.ok(meta.grant_types_supported.includes(DEVICE_GRANT));
});

test('device flow: codes, pending, slow_down, approval, tokens once; the CLI grant acts in every workspace with the user\'s role', async () => {
  const t = await team();
  const second = await t.api.call('createWorkspace', { body: { name: 'Second', slug: unique('ws-') } });
  const start = await deviceCode();
  assert.equal(start.status, 200);
  const grant = start.body as Record<string, string | number>;
  assert.match(String(grant.user_code), /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  assert.equal(grant.expires_in, 600);
  assert.equal(grant.interval, 5);
  assert.equal(grant.verification_uri_complete, `${grant.verification_uri}?user_code=${grant.user_code}`);
  assert.equal(start.headers.get('cache-control'), 'no-store');

  const poll = () => oauthPost('token', { grant_type: DEVICE_GRANT, device_code: String(grant.device_code), client_id: CLI_CLIENT });
  const first = await poll();
  assert.deepEqual([first.status, first.body.error], [400, 'authorization_pending']);
  const tooFast = await poll();
  assert.deepEqual([tooFast.status, tooFast.body.error], [400, 'slow_down']);

  const done = await approveDevice(t, String(grant.verification_uri_complete), 'approve', t.workspaceId);
  assert.equal(done.status, 200);
  assert.match(done.text, /Device connected/);
  const tokens = await poll();
  assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
  assert.equal(tokens.body.workspace_id, t.workspaceId);
  assert.equal((await poll()).body.error, 'invalid_grant', 'a device code is exchanged once');

  // Not bound: the same token works in both of the user's workspaces, as the owner of each.
  const api = client({ token: String(tokens.body.access_token) });
  for (const workspaceId of [t.workspaceId, second.data.id]) {
    const created = await api.raw('POST', `/v1/workspaces/${workspaceId}/links`, { body: { url: 'https://example.com/device' } });
    assert.equal(created.status, 201, created.text);
  }
  // Not a member elsewhere: 404, as for a session.
  const stranger = await team();
  assert.equal((await api.raw('GET', `/v1/workspaces/${stranger.workspaceId}/links`)).status, 404);
});

test('device flow: a denied request answers access_denied; an unknown code is refused on the page', async () => {
  const t = await team();
  const grant = (await deviceCode()).body as Record<string, string>;
  const denied = await approveDevice(t, grant.verification_uri_complete, 'deny');
  assert.match(denied.text, /Request denied/);
  const res = await oauthPost('token', { grant_type: DEVICE_GRANT, device_code: grant.device_code, client_id: CLI_CLIENT });
  assert.deepEqual([res.status, res.body.error], [400, 'access_denied']);
  const s = authorizeSession(`${grant.verification_uri}?user_code=BBBB-BBBB`);
  await s.get();
  await s.login(t);
  const unknown = await s.get();
  assert.equal(unknown.status, 400);
  assert.match(unknown.text, /unknown, used or expired/);
});

test('device flow for a third-party public client stays bound to the workspace chosen at consent', async () => {
  const t = await team();
  const other = await t.api.call('createWorkspace', { body: { name: 'Other', slug: unique('ws-') } });
  const { data: app } = await t.api.call('createOAuthClient', {
    params: { workspaceId: t.workspaceId }, body: { name: 'TV app', type: 'public', redirectUris: ['http://127.0.0.1/cb'] },
  });
  const grant = (await deviceCode(app.id, 'links:read')).body as Record<string, string>;
  assert.ok(grant.device_code, JSON.stringify(grant));
  await approveDevice(t, grant.verification_uri_complete, 'approve', t.workspaceId);
  const tokens = await oauthPost('token', { grant_type: DEVICE_GRANT, device_code: grant.device_code, client_id: app.id });
  assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
  const api = client({ token: String(tokens.body.access_token) });
  assert.equal((await api.raw('GET', `/v1/workspaces/${t.workspaceId}/links`)).status, 200);
  assert.equal((await api.raw('GET', `/v1/workspaces/${other.data.id}/links`)).status, 404);
  const device = await deviceCode(app.id, 'keys:manage');
  assert.deepEqual([device.status, device.body.error], [400, 'invalid_scope']);
});

test('the sign-in page links to sign-up, which creates the account and returns to the flow; a user with no workspace can still log the CLI in', async () => {
  const { challenge, verifier } = pkce();
  const redirectUri = 'http://127.0.0.1:45999/callback';
  const url = authorizeUrl({ clientId: CLI_CLIENT, redirectUri, challenge, state: 'st' });
  const s = authorizeSession(url);
  const login = await s.get();
  const href = /href="([^"]*prompt=create[^"]*)"/.exec(login.text)?.[1];
  assert.ok(href, 'a sign-up link');
  const signupUrl = `${API_URL}${href.replace(/&amp;/g, '&')}`;
  const su = authorizeSession(signupUrl);
  for (const [k, v] of su.jar.cookies) s.jar.cookies.set(k, v);
  const form = await su.get();
  assert.match(form.text, /Create your Hop account/);
  const email = `${unique('new')}@example.test`;
  const bad = await su.post({ csrf: su.csrf, action: 'signup', email, name: 'New', password: 'short' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /password/);
  const created = await su.post({ csrf: su.csrf, action: 'signup', email, name: 'New', password: 'a long passphrase' });
  assert.equal(created.status, 303);
  assert.equal(created.location, url.slice(API_URL.length), 'back to the flow, without prompt=create');
  const consent = await authorizeSession(url);
  for (const [k, v] of su.jar.cookies) consent.jar.cookies.set(k, v);
  const page = await consent.get();
  assert.match(page.text, /in each of your workspaces/);
  assert.match(page.text, /no workspace yet/);
  const approved = await consent.decide('approve');
  assert.equal(approved.status, 303, approved.text.slice(0, 300));
  const code = new URL(approved.location!).searchParams.get('code')!;
  const tokens = await oauthPost('token', { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: CLI_CLIENT });
  assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
  assert.equal(tokens.body.workspace_id, null);
  const api = client({ token: String(tokens.body.access_token) });
  const ws = await api.call('createWorkspace', { body: { name: 'Made by the CLI', slug: unique('ws-') } });
  assert.equal((await api.raw('GET', `/v1/workspaces/${ws.data.id}/links`)).status, 200);
});
