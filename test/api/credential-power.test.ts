// Credentials never grant more than they hold (docs/api.md, Access): a key or OAuth token creates keys
// with at most its own scopes and registers OAuth clients only when it holds every scope such a
// client may ask for; a session grants up to its role (checked at each request, see
// api-keys.test.ts). Session tokens without an expiry are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt, SignJWT } from 'jose';
import { SCOPES, type Scope } from '@hop/shared';
import { apiKey, client, fails, succeeds, team } from '../helpers/api.js';
import { oauthTokens } from '../helpers/oauth.js';

test('a key holding only keys:manage cannot create a key with every scope; a key grants at most what it holds', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const manager = await apiKey(t, ['keys:manage']);
  const e = await fails(manager.api, 'createApiKey', { params, body: { name: 'everything', scopes: [...SCOPES] } }, 'INSUFFICIENT_SCOPE', 403);
  assert.ok(e.details.requiredScope && e.details.requiredScope !== 'keys:manage', JSON.stringify(e.details));
  assert.deepEqual(e.details.grantedScopes, ['keys:manage']);
  // Nothing was made: the owner sees only the manager key.
  const { data: keys } = await t.api.call('listApiKeys', { params });
  assert.deepEqual(keys.map((k) => k.id), [manager.id]);

  const reader = await apiKey(t, ['links:read', 'keys:manage']);
  const made = await succeeds(reader.api, 'createApiKey', { params, body: { name: 'narrower', scopes: ['links:read'] } });
  assert.deepEqual(made.body.data.scopes, ['links:read']);
  const e2 = await fails(reader.api, 'createApiKey', { params, body: { name: 'wider', scopes: ['links:read', 'links:write'] } }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e2.details.requiredScope, 'links:write');

  // A session holds every scope: the owner may grant any of them.
  const all = await succeeds(t.api, 'createApiKey', { params, body: { name: 'owner made', scopes: [...SCOPES] } });
  assert.deepEqual([...all.body.data.scopes].sort(), [...SCOPES].sort());
});

test('an OAuth token creates keys with at most its own scopes', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const scopes: Scope[] = ['keys:manage', 'links:read'];
  const tokens = await oauthTokens(t, t.workspaceId, { scopes });
  const api = client({ token: tokens.access_token });
  const e = await fails(api, 'createApiKey', { params, body: { name: 'wider', scopes: ['links:read', 'webhooks:manage'] } }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e.details.requiredScope, 'webhooks:manage');
  const ok = await succeeds(api, 'createApiKey', { params, body: { name: 'within', scopes: ['links:read'] } });
  assert.deepEqual(ok.body.data.scopes, ['links:read']);
});

test('an OAuth client is registered only by a credential holding every scope a client may ask for', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const body = { name: 'Automation', type: 'public' as const, redirectUris: ['https://automation.example.test/cb'] };
  const manager = await apiKey(t, ['keys:manage']);
  const e = await fails(manager.api, 'createOAuthClient', { params, body }, 'INSUFFICIENT_SCOPE', 403);
  assert.deepEqual(e.details.grantedScopes, ['keys:manage']);
  assert.deepEqual((await t.api.call('listOAuthClients', { params })).data, []);
  const full = await apiKey(t, [...SCOPES]);
  await succeeds(full.api, 'createOAuthClient', { params, body });
  await succeeds(t.api, 'createOAuthClient', { params, body: { ...body, name: 'By a session' } });
});

test('a session JWT without exp, or naming no standing session, is refused (401), though signed with the server secret', async () => {
  const t = await team();
  const secret = new TextEncoder().encode(process.env.HOP_TEST_SECRET);
  const { sid } = decodeJwt(t.token);
  const claims = (session = sid) => new SignJWT({ sid: session }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(t.userId)
    .setIssuer('hop').setAudience('hop-session').setIssuedAt();
  const forever = await claims().sign(secret);
  const res = await client({ token: forever }).raw('GET', '/v1/me');
  assert.equal(res.status, 401, res.text);
  assert.equal((res.body as { error: { code: string } }).error.code, 'UNAUTHORIZED');
  // The same claims with an expiry are a valid session: only the missing exp was refused.
  const hour = await claims().setExpirationTime('1h').sign(secret);
  assert.equal((await client({ token: hour }).raw('GET', '/v1/me')).status, 200);
  // A session the server has no record of (made up, or ended) is refused however well signed.
  const madeUp = await claims('ses_0000000000000000made').setExpirationTime('1h').sign(secret);
  assert.equal((await client({ token: madeUp }).raw('GET', '/v1/me')).status, 401);
  const noSession = await new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(t.userId)
    .setIssuer('hop').setAudience('hop-session').setIssuedAt().setExpirationTime('1h').sign(secret);
  assert.equal((await client({ token: noSession }).raw('GET', '/v1/me')).status, 401);
  await t.api.call('logout', {});
  assert.equal((await client({ token: hour }).raw('GET', '/v1/me')).status, 401);
});
