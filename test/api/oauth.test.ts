// The authorization server (docs/api.md, Access): metadata, clients, the authorize page's rules (never a
// redirect to an unregistered URI, errors by redirect with state), PKCE S256 only, single-use
// codes, refresh rotation with reuse detection, revocation, and tokens as automation platforms
// use them against /api/v1. Expiry is tested with a controlled clock beside the service.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCOPES, type CreatedOAuthClient } from '@hop/shared';
import { HopApiError } from '@hop/shared/client';
import { addMember, API_URL, apiKey, client, team, type Team } from '../helpers/api.js';
import { approve, authorizeSession, authorizeUrl, CLI_CLIENT, oauthPost, oauthTokens, pkce } from '../helpers/oauth.js';

const REDIRECT = 'https://app.example.test/oauth/callback';

async function registerClient(t: Team, type: 'confidential' | 'public' = 'confidential', redirectUris = [REDIRECT, 'http://127.0.0.1/cb']): Promise<CreatedOAuthClient> {
  const { data } = await t.api.call('createOAuthClient', { params: { workspaceId: t.workspaceId }, body: { name: 'Zapier test', type, redirectUris } });
  return data;
}

const bearer = (token: string) => client({ token });

test('metadata at /.well-known/oauth-authorization-server (RFC 8414)', async () => {
  const res = await fetch(`${API_URL}/.well-known/oauth-authorization-server`);
  assert.equal(res.status, 200);
  const m = await res.json();
  assert.equal(m.authorization_endpoint, `${m.issuer}/v1/oauth/authorize`);
  assert.equal(m.token_endpoint, `${m.issuer}/v1/oauth/token`);
  assert.equal(m.revocation_endpoint, `${m.issuer}/v1/oauth/revoke`);
  assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
  assert.deepEqual(m.response_types_supported, ['code']);
  assert.deepEqual(m.grant_types_supported, ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:token-exchange']);
  assert.equal(m.device_authorization_endpoint, `${m.issuer}/v1/oauth/device/code`);
  assert.deepEqual(m.scopes_supported, [...SCOPES]);
  assert.deepEqual(m.token_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post', 'none']);
});

test('clients: confidential ones get a secret once; list hides it; regenerate replaces it; delete revokes its tokens', async () => {
  const t = await team();
  const c = await registerClient(t);
  assert.match(c.id, /^oac_[0-9A-Za-z]{16,}$/);
  assert.equal(c.clientId, c.id);
  assert.match(c.clientSecret!, /^hopcs_[0-9A-Za-z]{40}$/);
  const { data: list } = await t.api.call('listOAuthClients', { params: { workspaceId: t.workspaceId } });
  assert.equal(list.length, 1);
  assert.ok(!('clientSecret' in list[0]), 'the secret is shown only at creation');
  assert.ok(!JSON.stringify(list).includes(c.clientSecret!));

  const pub = await registerClient(t, 'public');
  assert.equal(pub.clientSecret, null);
  await assert.rejects(t.api.call('regenerateOAuthClientSecret', { params: { workspaceId: t.workspaceId, clientId: pub.id } }), { code: 'VALIDATION_ERROR' });

  const tokens = await oauthTokens(t, t.workspaceId, { clientId: c.id, clientSecret: c.clientSecret!, redirectUri: REDIRECT, scopes: ['links:read'] });
  const { data: again } = await t.api.call('regenerateOAuthClientSecret', { params: { workspaceId: t.workspaceId, clientId: c.id } });
  assert.notEqual(again.clientSecret, c.clientSecret);
  // The old secret stops working; the new one works; tokens already issued stay valid.
  const old = await oauthPost('token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, [c.id, c.clientSecret!]);
  assert.equal(old.status, 401);
  assert.equal(old.body.error, 'invalid_client');
  assert.equal(old.headers.get('www-authenticate'), 'Basic realm="hop"');
  const fresh = await oauthPost('token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, [c.id, again.clientSecret!]);
  assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
  const access = String(fresh.body.access_token);
  await bearer(access).call('listLinks', { params: { workspaceId: t.workspaceId } });

  const { data: deleted } = await t.api.call('deleteOAuthClient', { params: { workspaceId: t.workspaceId, clientId: c.id } });
  assert.equal(deleted.id, c.id);
  await assert.rejects(bearer(access).call('listLinks', { params: { workspaceId: t.workspaceId } }), { code: 'UNAUTHORIZED' });
  await assert.rejects(t.api.call('deleteOAuthClient', { params: { workspaceId: t.workspaceId, clientId: c.id } }), { code: 'NOT_FOUND' });
});

test('client registration: redirect URIs are https, http loopback or a private-use scheme; admins only; keys:manage', async () => {
  const t = await team();
  for (const bad of ['http://app.example.test/cb', 'https://app.example.test/cb#frag', 'not a url', 'javascript:alert(1)']) {
    await assert.rejects(t.api.call('createOAuthClient', { params: { workspaceId: t.workspaceId }, body: { name: 'x', type: 'public', redirectUris: [bad] } }), { code: 'VALIDATION_ERROR' }, bad);
  }
  await registerClient(t, 'public', ['com.example.app:/callback', 'http://[::1]/cb', 'http://localhost/cb']);
  const member = await addMember(t, 'member');
  await assert.rejects(member.api.call('listOAuthClients', { params: { workspaceId: t.workspaceId } }), (e: HopApiError) => e.code === 'FORBIDDEN' && e.details.requiredRole === 'admin');
  const key = await apiKey(t, ['links:read']);
  await assert.rejects(key.api.call('createOAuthClient', { params: { workspaceId: t.workspaceId }, body: { name: 'x', type: 'public', redirectUris: [REDIRECT] } }), { code: 'INSUFFICIENT_SCOPE' });
});

test('a confidential client (client_secret_basic) gets tokens bound to one workspace, usable on /api/v1 like a key', async () => {
  const t = await team();
  const c = await registerClient(t);
  const { verifier, challenge } = pkce();
  const at = await approve(t, t.workspaceId, { clientId: c.id, redirectUri: REDIRECT, scope: 'links:read links:write', state: 'xyz 123', challenge });
  assert.equal(`${at.origin}${at.pathname}`, REDIRECT);
  assert.equal(at.searchParams.get('state'), 'xyz 123', 'state comes back unchanged');
  const code = at.searchParams.get('code')!;
  const res = await oauthPost('token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, [c.id, c.clientSecret!]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.equal(res.body.token_type, 'Bearer');
  assert.equal(res.body.expires_in, 3600);
  assert.equal(res.body.scope, 'links:read links:write');
  assert.equal(res.body.workspace_id, t.workspaceId);
  assert.match(String(res.body.access_token), /^hopat_/);
  assert.match(String(res.body.refresh_token), /^hoprt_/);

  // As an automation platform calls it: Authorization: Bearer on the integration surface.
  const headers = { authorization: `Bearer ${res.body.access_token}`, 'content-type': 'application/json' };
  const me = await fetch(`${API_URL}/api/v1/me`, { headers });
  assert.equal(me.status, 200);
  assert.equal((await me.json()).workspace.id, t.workspaceId);
  const created = await fetch(`${API_URL}/api/v1/links`, { method: 'POST', headers, body: JSON.stringify({ url: 'https://example.com/from-zap' }) });
  assert.equal(created.status, 201);
  const polled = await (await fetch(`${API_URL}/api/v1/links`, { headers })).json();
  assert.equal(polled[0].url, 'https://example.com/from-zap');
  // Scopes fixed at issue: no webhooks:manage, no analytics.
  const hook = await fetch(`${API_URL}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ targetUrl: 'https://hooks.example.test/x', events: ['link.created'] }) });
  assert.equal(hook.status, 403);
  assert.equal((await hook.json()).error.code, 'INSUFFICIENT_SCOPE');
  // Bound to its workspace: another workspace of the same user is not found.
  const { data: other } = await t.api.call('createWorkspace', { body: { name: 'Other', slug: `other-${Date.now()}` } });
  await assert.rejects(bearer(String(res.body.access_token)).call('listLinks', { params: { workspaceId: other.id } }), { code: 'NOT_FOUND' });
  // A third-party token cannot act at account level (creating workspaces).
  await assert.rejects(bearer(String(res.body.access_token)).call('createWorkspace', { body: { name: 'x', slug: `x-${Date.now()}` } }), { code: 'FORBIDDEN' });
});

test('client_secret_post and public clients (no secret); a confidential client without its secret is refused', async () => {
  const t = await team();
  const c = await registerClient(t);
  for (const [form, status] of [
    [{ client_id: c.id, client_secret: c.clientSecret! }, 200],
    [{ client_id: c.id }, 401],
    [{ client_id: c.id, client_secret: 'hopcs_wrong' }, 401],
  ] as const) {
    const { verifier, challenge } = pkce();
    const code = (await approve(t, t.workspaceId, { clientId: c.id, redirectUri: REDIRECT, scope: 'links:read', challenge })).searchParams.get('code')!;
    const res = await oauthPost('token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, ...form });
    assert.equal(res.status, status, JSON.stringify(res.body));
    if (status === 401) assert.equal(res.body.error, 'invalid_client');
  }
  const pub = await registerClient(t, 'public');
  const tokens = await oauthTokens(t, t.workspaceId, { clientId: pub.id, redirectUri: REDIRECT, scopes: ['links:read'] });
  assert.equal(tokens.scope, 'links:read');
  const unknown = await oauthPost('token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'oac_0000000000000000000000' });
  assert.equal(unknown.status, 401);
  assert.equal(unknown.body.error, 'invalid_client');
});

test('never a redirect to an unregistered URI or for an unknown client: an HTML error page instead', async () => {
  const t = await team();
  const c = await registerClient(t);
  const { challenge } = pkce();
  for (const p of [
    { clientId: c.id, redirectUri: 'https://evil.example.test/cb' },
    { clientId: c.id, redirectUri: `${REDIRECT}/` },
    { clientId: c.id, redirectUri: 'http://127.0.0.1:5000/other-path' },
    { clientId: 'oac_0000000000000000000000', redirectUri: REDIRECT },
    { clientId: CLI_CLIENT, redirectUri: 'https://evil.example.test/callback' },
  ]) {
    const res = await fetch(authorizeUrl({ ...p, scope: 'links:read', state: 's', challenge }), { redirect: 'manual' });
    assert.equal(res.status, 400, p.redirectUri);
    assert.equal(res.headers.get('location'), null, 'no redirect');
    assert.match(res.headers.get('content-type')!, /text\/html/);
  }
  // Loopback: any port matches (RFC 8252), same path.
  const res = await fetch(authorizeUrl({ clientId: c.id, redirectUri: 'http://127.0.0.1:53412/cb', scope: 'links:read', challenge }), { redirect: 'manual' });
  assert.equal(res.status, 200);
});

test('authorize errors go back to the redirect URI with error= and state: plain PKCE, no challenge, bad scope, keys:manage, wrong response_type', async () => {
  const t = await team();
  const c = await registerClient(t);
  const { challenge } = pkce();
  const cases: [Partial<Parameters<typeof authorizeUrl>[0]>, string][] = [
    [{ method: 'plain', challenge: 'a'.repeat(43) }, 'invalid_request'],
    [{ challenge: undefined }, 'invalid_request'],
    [{ scope: 'links:read nope:nope' }, 'invalid_scope'],
    [{ scope: 'links:read keys:manage' }, 'invalid_scope'],
    [{ scope: '' }, 'invalid_scope'],
    [{ responseType: 'token' }, 'unsupported_response_type'],
  ];
  for (const [override, error] of cases) {
    const url = authorizeUrl({ clientId: c.id, redirectUri: REDIRECT, scope: 'links:read', state: 'st8', challenge, ...override });
    const res = await fetch(url, { redirect: 'manual' });
    assert.equal(res.status, 302, `${JSON.stringify(override)}: ${res.status}`);
    const to = new URL(res.headers.get('location')!);
    assert.equal(`${to.origin}${to.pathname}`, REDIRECT);
    assert.equal(to.searchParams.get('error'), error, JSON.stringify(override));
    assert.equal(to.searchParams.get('state'), 'st8');
    assert.equal(to.searchParams.get('code'), null);
  }
  // The CLI (first party) may ask for keys:manage, and gets every scope when it asks for none.
  const cli = await oauthTokens(t, t.workspaceId, { scopes: ['keys:manage'] });
  assert.equal(cli.scope, 'keys:manage');
  const all = await oauthTokens(t, t.workspaceId);
  assert.deepEqual(all.scope.split(' '), [...SCOPES]);
  await bearer(all.access_token).call('createApiKey', { params: { workspaceId: t.workspaceId }, body: { name: 'ci', scopes: ['links:read'] } });
});

test('deny answers access_denied with state; forms without the CSRF token are refused; a wrong password shows the form again', async () => {
  const t = await team();
  const { challenge } = pkce();
  const redirectUri = 'http://127.0.0.1:40000/callback';
  const s = authorizeSession(authorizeUrl({ clientId: CLI_CLIENT, redirectUri, state: 'deny-me', challenge }));
  const page = await s.get();
  assert.match(page.text, /Sign in to Hop/);
  assert.equal(page.headers.get('x-frame-options'), 'DENY');
  assert.match(page.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
  const forged = await s.post({ csrf: 'x'.repeat(32), action: 'login', email: t.email, password: t.password });
  assert.equal(forged.status, 403);
  const wrong = await s.login({ email: t.email, password: 'not the password' });
  assert.equal(wrong.status, 401);
  assert.match(wrong.text, /Wrong e-mail or password/);
  assert.equal((await s.login(t)).status, 303);
  const consent = await s.get();
  assert.match(consent.text, /Hop CLI/);
  assert.match(consent.text, /Create, change and delete links/);
  assert.match(consent.text, /Create and revoke API keys/);
  assert.match(consent.text, new RegExp(t.slug));
  const cookie = s.jar.cookies.get('hop_oauth_session');
  assert.ok(cookie, 'the session cookie is set');
  const denied = await s.decide('deny');
  assert.equal(denied.status, 303);
  const to = new URL(denied.location!);
  assert.equal(to.searchParams.get('error'), 'access_denied');
  assert.equal(to.searchParams.get('state'), 'deny-me');
  // A workspace the user is not a member of cannot be chosen.
  const stranger = await team();
  const foreign = await s.decide('approve', stranger.workspaceId);
  assert.equal(foreign.status, 400);
  assert.equal(foreign.location, null);
});

test('codes: single use (reuse revokes what the first use gave), bound to the verifier, the redirect URI and the client', async () => {
  const t = await team();
  const redirectUri = 'http://127.0.0.1:41000/callback';
  const exchange = async (over: Record<string, string> = {}) => {
    const { verifier, challenge } = pkce();
    const code = (await approve(t, t.workspaceId, { clientId: CLI_CLIENT, redirectUri, challenge })).searchParams.get('code')!;
    const form = { grant_type: 'authorization_code', client_id: CLI_CLIENT, code, redirect_uri: redirectUri, code_verifier: verifier, ...over };
    return { form, verifier, res: await oauthPost('token', form) };
  };
  const ok = await exchange();
  assert.equal(ok.res.status, 200);
  const access = String(ok.res.body.access_token);
  await bearer(access).call('getMe', {});
  const reused = await oauthPost('token', ok.form);
  assert.equal(reused.status, 400);
  assert.equal(reused.body.error, 'invalid_grant');
  assert.ok(reused.body.error_description);
  await assert.rejects(bearer(access).call('getMe', {}), { code: 'UNAUTHORIZED' }, 'tokens from a reused code are revoked');
  const refreshAfter = await oauthPost('token', { grant_type: 'refresh_token', client_id: CLI_CLIENT, refresh_token: String(ok.res.body.refresh_token) });
  assert.equal(refreshAfter.body.error, 'invalid_grant');

  const wrongVerifier = await exchange({ code_verifier: pkce().verifier });
  assert.equal(wrongVerifier.res.body.error, 'invalid_grant');
  // A wrong verifier spends the code: the right one cannot follow.
  assert.equal((await oauthPost('token', { ...wrongVerifier.form, code_verifier: wrongVerifier.verifier })).body.error, 'invalid_grant');
  assert.equal((await exchange({ redirect_uri: 'http://127.0.0.1:41001/callback' })).res.body.error, 'invalid_grant');
  const other = await registerClient(t, 'public');
  assert.equal((await exchange({ client_id: other.id })).res.body.error, 'invalid_grant');
  assert.equal((await exchange({ code: 'hopac_unknown' })).res.body.error, 'invalid_grant');
  assert.equal((await exchange({ code_verifier: '' })).res.body.error, 'invalid_request');
  assert.equal((await exchange({ grant_type: 'password' })).res.body.error, 'unsupported_grant_type');
  assert.equal((await exchange({ grant_type: '' })).res.body.error, 'invalid_request');
});

test('refresh: rotated on every use; reusing an old refresh token revokes the whole grant', async () => {
  const t = await team();
  const first = await oauthTokens(t, t.workspaceId, { scopes: ['links:read', 'workspace:read'] });
  const refresh = (token: string, extra: Record<string, string> = {}) =>
    oauthPost('token', { grant_type: 'refresh_token', client_id: CLI_CLIENT, refresh_token: token, ...extra });
  const second = await refresh(first.refresh_token);
  assert.equal(second.status, 200);
  assert.notEqual(second.body.refresh_token, first.refresh_token);
  assert.notEqual(second.body.access_token, first.access_token);
  assert.equal(second.body.scope, 'links:read workspace:read');
  const narrower = await refresh(String(second.body.refresh_token), { scope: 'links:read' });
  assert.equal(narrower.status, 200);
  assert.equal(narrower.body.scope, 'links:read');
  assert.equal((await refresh(String(narrower.body.refresh_token), { scope: 'links:write' })).body.error, 'invalid_scope');
  const third = await refresh(String(narrower.body.refresh_token));
  assert.equal(third.status, 200, 'a refused scope does not spend the token');
  await bearer(String(third.body.access_token)).call('listLinks', { params: { workspaceId: t.workspaceId } });

  const replay = await refresh(first.refresh_token);
  assert.equal(replay.status, 400);
  assert.equal(replay.body.error, 'invalid_grant');
  await assert.rejects(bearer(String(third.body.access_token)).call('listLinks', { params: { workspaceId: t.workspaceId } }), { code: 'UNAUTHORIZED' });
  assert.equal((await refresh(String(third.body.refresh_token))).body.error, 'invalid_grant', 'the newest refresh token dies with the grant');
});

test('revoke (RFC 7009): a refresh or access token ends the grant; unknown tokens answer 200', async () => {
  const t = await team();
  for (const which of ['refresh_token', 'access_token'] as const) {
    const tokens = await oauthTokens(t, t.workspaceId);
    const res = await oauthPost('revoke', { token: tokens[which], client_id: CLI_CLIENT });
    assert.equal(res.status, 200);
    await assert.rejects(bearer(tokens.access_token).call('getMe', {}), { code: 'UNAUTHORIZED' });
    const r = await oauthPost('token', { grant_type: 'refresh_token', client_id: CLI_CLIENT, refresh_token: tokens.refresh_token });
    assert.equal(r.body.error, 'invalid_grant');
  }
  assert.equal((await oauthPost('revoke', { token: 'hoprt_nothing', client_id: CLI_CLIENT })).status, 200);
  assert.equal((await oauthPost('revoke', { client_id: CLI_CLIENT })).body.error, 'invalid_request');
  // Another client cannot revoke the CLI's tokens.
  const c = await registerClient(t);
  const tokens = await oauthTokens(t, t.workspaceId);
  assert.equal((await oauthPost('revoke', { token: tokens.refresh_token }, [c.id, c.clientSecret!])).status, 200);
  await bearer(tokens.access_token).call('getMe', {});
});

test('roles still bound OAuth tokens: each role is refused what is above it (403 FORBIDDEN with requiredRole)', async () => {
  const t = await team();
  const c = await registerClient(t);
  const scopes = ['links:read', 'links:write', 'webhooks:manage', 'workspace:write', 'workspace:read'] as const;
  const expectations = {
    viewer: { createLink: 'member', invite: 'admin', rename: 'owner' },
    member: { createLink: null, invite: 'admin', rename: 'owner' },
    admin: { createLink: null, invite: null, rename: 'owner' },
  } as const;
  for (const role of ['viewer', 'member', 'admin'] as const) {
    const account = await addMember(t, role);
    const tokens = await oauthTokens(account, t.workspaceId, { clientId: c.id, clientSecret: c.clientSecret!, redirectUri: REDIRECT, scopes: [...scopes] });
    const api = bearer(tokens.access_token);
    const check = async (what: string, required: string | null, call: () => Promise<unknown>) => {
      if (!required) return call();
      await assert.rejects(call, (e: HopApiError) => e.code === 'FORBIDDEN' && e.details.requiredRole === required, `${role} ${what}`);
    };
    await api.call('listLinks', { params: { workspaceId: t.workspaceId } });
    await check('createLink', expectations[role].createLink, () => api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com' } }));
    await check('invite', expectations[role].invite, () => api.call('createInvite', { params: { workspaceId: t.workspaceId }, body: { email: `${role}-x@example.test`, role: 'viewer' } }));
    await check('rename', expectations[role].rename, () => api.call('updateWorkspace', { params: { workspaceId: t.workspaceId }, body: { name: 'Renamed' } }));
  }
});
