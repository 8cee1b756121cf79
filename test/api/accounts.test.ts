// Accounts (docs/api.md, Accounts): password change, weak passwords refused, sessions that end on
// the server, and connected apps, over HTTP against the run's server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anonymous, client, fails, rawFails, signup, succeeds, team, unique, type Account } from '../helpers/api.js';
import { authorizeSession, authorizeUrl, CLI_CLIENT, oauthPost, oauthTokens, pkce } from '../helpers/oauth.js';

const login = async (a: Pick<Account, 'email' | 'password'>, userAgent = 'accounts-test') => {
  const { data } = await client().call('login', { body: { email: a.email, password: a.password }, headers: { 'user-agent': userAgent } });
  return client({ token: data.token });
};

test('sign-up refuses short, whitespace-only, common and e-mail passwords, saying why', async () => {
  const email = `${unique('weak')}@example.test`;
  const cases: [string, RegExp][] = [
    ['short', /at least 8 characters/],
    ['          ', /only spaces/],
    ['password123', /most common passwords/],
    ['Qwertyuiop', /most common passwords/],
    [email.toUpperCase(), /e-mail/],
  ];
  for (const [password, why] of cases) {
    const err = await fails(anonymous, 'signup', { body: { email, password, name: 'Weak' } }, 'VALIDATION_ERROR', 400);
    assert.match(err.message, why, `${JSON.stringify(password)}: ${err.message}`);
    assert.match(err.message, /^password: /);
  }
  // None of them made the account: a good password still can.
  await succeeds(anonymous, 'signup', { body: { email, password: 'a quite uncommon phrase', name: 'Strong' } });
});

test('changing the password needs the current one, refuses weak ones, and ends every other session', async () => {
  const a = await signup();
  const other = await login(a, 'other browser');
  // Wrong current password: 400 naming the field (never 401, which would sign the dashboard out).
  const wrong = await fails(a.api, 'changePassword', { body: { currentPassword: 'not it at all', newPassword: 'a brand new phrase' } }, 'VALIDATION_ERROR');
  assert.match(wrong.message, /^currentPassword: /);
  const weak = await fails(a.api, 'changePassword', { body: { currentPassword: a.password, newPassword: 'iloveyou1' } }, 'VALIDATION_ERROR');
  assert.match(weak.message, /^newPassword: .*most common/);
  const same = await fails(a.api, 'changePassword', { body: { currentPassword: a.password, newPassword: a.email } }, 'VALIDATION_ERROR');
  assert.match(same.message, /e-mail/);
  await succeeds(other, 'getMe', {});

  const changed = await succeeds(a.api, 'changePassword', { body: { currentPassword: a.password, newPassword: 'a brand new phrase' } });
  assert.equal(changed.body.data.endedSessions, 1);
  await fails(other, 'getMe', {}, 'UNAUTHORIZED', 401);
  await succeeds(a.api, 'getMe', {});
  await fails(anonymous, 'login', { body: { email: a.email, password: a.password } }, 'UNAUTHORIZED');
  await login({ email: a.email, password: 'a brand new phrase' });
});

test('sessions are listed with their user agent, and end one by one, by logout, or all but this one', async () => {
  const a = await signup();
  const phone = await login(a, 'Phone browser');
  const laptop = await login(a, 'Laptop browser');
  const list = await succeeds(laptop, 'listSessions', {});
  const sessions = list.body.data;
  assert.equal(sessions.length, 3);
  assert.deepEqual(sessions.map((s) => s.current), [false, false, true]);
  assert.deepEqual(sessions.slice(1).map((s) => s.userAgent), ['Phone browser', 'Laptop browser']);
  for (const s of sessions) assert.ok(s.lastUsedAt >= s.createdAt);

  // One by id: the phone's token stops working at once.
  await succeeds(laptop, 'deleteSession', { params: { sessionId: sessions[1].id } });
  await fails(phone, 'getMe', {}, 'UNAUTHORIZED');
  await fails(laptop, 'deleteSession', { params: { sessionId: sessions[1].id } }, 'NOT_FOUND');
  // Another user's session is not found either.
  const b = await signup();
  const bSessions = await succeeds(b.api, 'listSessions', {});
  await fails(laptop, 'deleteSession', { params: { sessionId: bSessions.body.data[0].id } }, 'NOT_FOUND');
  await succeeds(b.api, 'getMe', {});
  await rawFails(laptop, 'DELETE', '/v1/auth/sessions/not-a-session', {}, 'VALIDATION_ERROR');

  // All but this one.
  const third = await login(a, 'Third');
  const ended = await succeeds(laptop, 'deleteOtherSessions', {});
  assert.equal(ended.body.data.ended, 2);
  await fails(third, 'getMe', {}, 'UNAUTHORIZED');
  await fails(a.api, 'getMe', {}, 'UNAUTHORIZED');
  assert.equal((await succeeds(laptop, 'listSessions', {})).body.data.length, 1);

  // Logout ends the caller's own session.
  assert.equal((await succeeds(laptop, 'logout', {})).body.data.ended, 1);
  const after = await fails(laptop, 'getMe', {}, 'UNAUTHORIZED');
  assert.match(after.message, /signed out/);
});

test('API keys and third-party tokens cannot reach sessions, passwords or connected apps', async () => {
  const t = await team();
  const { data: key } = await t.api.call('createApiKey', { params: { workspaceId: t.workspaceId }, body: { name: 'k', scopes: ['links:read'] } });
  const keyApi = client({ apiKey: key.key });
  await fails(keyApi, 'listSessions', {}, 'FORBIDDEN');
  await fails(keyApi, 'logout', {}, 'FORBIDDEN');
  await fails(keyApi, 'listOAuthGrants', {}, 'FORBIDDEN');
  await fails(keyApi, 'changePassword', { body: { currentPassword: t.password, newPassword: 'a brand new phrase' } }, 'FORBIDDEN');
  await fails(anonymous, 'listSessions', {}, 'UNAUTHORIZED');
});

test('the OAuth pages sign-in is a session of its own; their sign-out ends it on the server', async () => {
  const t = await team();
  const s = authorizeSession(authorizeUrl({ clientId: CLI_CLIENT, redirectUri: 'http://127.0.0.1:45678/callback', state: 's', challenge: pkce().challenge }), { 'user-agent': 'OAuth page browser' });
  await s.get();
  assert.equal((await s.login(t)).status, 303);
  const consent = await s.get();
  assert.match(consent.text, /Sign out/);
  const cookie = s.jar.cookies.get('hop_oauth_session')!;
  assert.ok(cookie);
  const listed = await succeeds(t.api, 'listSessions', {});
  assert.ok(listed.body.data.some((x) => x.userAgent === 'OAuth page browser'));
  // The cookie's token works as a session token until the page signs out.
  const asCookie = client({ token: cookie });
  await succeeds(asCookie, 'getMe', {});
  const out = await s.post({ csrf: s.csrf, action: 'logout' });
  assert.equal(out.status, 303);
  assert.match(String(out.headers.get('set-cookie')), /hop_oauth_session=;/);
  await fails(asCookie, 'getMe', {}, 'UNAUTHORIZED');
  // Even a browser that kept the cookie is signed out.
  s.jar.cookies.set('hop_oauth_session', cookie);
  assert.match((await s.get()).text, /Sign in/);
});

test('connected apps list the CLI login and third-party grants; revoking one kills its tokens', async () => {
  const t = await team();
  const redirectUri = 'https://app.example.test/callback';
  const { data: app } = await t.api.call('createOAuthClient', { params: { workspaceId: t.workspaceId }, body: { name: 'Zapier-like', type: 'public', redirectUris: [redirectUri] } });
  const cli = await oauthTokens(t, t.workspaceId);
  const third = await oauthTokens(t, t.workspaceId, { clientId: app.clientId, redirectUri, scopes: ['links:read'] });
  const cliApi = client({ token: cli.access_token });
  const thirdApi = client({ token: third.access_token });
  await succeeds(thirdApi, 'listLinks', { params: { workspaceId: t.workspaceId } });

  const grants = (await succeeds(t.api, 'listOAuthGrants', {})).body.data;
  assert.equal(grants.length, 2);
  const [cliGrant, appGrant] = grants;
  assert.equal(cliGrant.clientId, CLI_CLIENT);
  assert.equal(cliGrant.clientName, 'Hop CLI');
  assert.deepEqual(cliGrant.workspaces.map((w) => w.id), [t.workspaceId]);
  assert.equal(appGrant.clientId, app.clientId);
  assert.equal(appGrant.clientName, 'Zapier-like');
  assert.deepEqual(appGrant.scopes, ['links:read']);
  assert.deepEqual(appGrant.workspaces, [{ id: t.workspaceId, slug: t.slug, name: 'Test Workspace' }]);
  // Used just now (the API call above), so lastUsedAt is set.
  assert.ok(appGrant.lastUsedAt);
  // The CLI's own login may list them too.
  assert.equal((await succeeds(cliApi, 'listOAuthGrants', {})).body.data.length, 2);
  // ... but a third-party token may not.
  await fails(thirdApi, 'listOAuthGrants', {}, 'FORBIDDEN');

  const revoked = await succeeds(t.api, 'deleteOAuthGrant', { params: { grantId: appGrant.id } });
  assert.equal(revoked.body.data.id, appGrant.id);
  await fails(thirdApi, 'listLinks', { params: { workspaceId: t.workspaceId } }, 'UNAUTHORIZED');
  const refreshed = await oauthPost('token', { grant_type: 'refresh_token', refresh_token: third.refresh_token, client_id: app.clientId });
  assert.equal(refreshed.status, 400);
  assert.equal(refreshed.body.error, 'invalid_grant');
  await fails(t.api, 'deleteOAuthGrant', { params: { grantId: appGrant.id } }, 'NOT_FOUND');
  // Someone else's grant is not found.
  const other = await signup();
  await fails(other.api, 'deleteOAuthGrant', { params: { grantId: cliGrant.id } }, 'NOT_FOUND');
  assert.deepEqual((await succeeds(t.api, 'listOAuthGrants', {})).body.data.map((g) => g.id), [cliGrant.id]);

  // The CLI's logout (POST /v1/auth/logout with its token) ends its own grant.
  assert.equal((await succeeds(cliApi, 'logout', {})).body.data.ended, 1);
  await fails(cliApi, 'getMe', {}, 'UNAUTHORIZED');
  assert.deepEqual((await succeeds(t.api, 'listOAuthGrants', {})).body.data, []);
});

test('signing out everywhere ends CLI logins too, but not the caller\'s own', async () => {
  const t = await team();
  const cliA = await oauthTokens(t, t.workspaceId);
  const cliB = await oauthTokens(t, t.workspaceId);
  const a = client({ token: cliA.access_token });
  const b = client({ token: cliB.access_token });
  const ended = await succeeds(a, 'deleteOtherSessions', {});
  // The sign-up's session, the OAuth page's two sign-ins (one per consent) and the other CLI login.
  assert.equal(ended.body.data.ended, 4);
  await fails(b, 'getMe', {}, 'UNAUTHORIZED');
  await fails(t.api, 'getMe', {}, 'UNAUTHORIZED');
  await succeeds(a, 'getMe', {});
});

test('GET /v1/me says whether the caller is the operator', async () => {
  const a = await signup();
  const me = await succeeds(a.api, 'getMe', {});
  // The run's first account (test/run.mjs) is the operator; accounts of tests never are.
  assert.equal(me.body.data.isOperator, false);
  await fails(a.api, 'adminPasswordReset', { params: { userId: a.userId } }, 'FORBIDDEN');
});
