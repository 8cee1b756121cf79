// docs/ci.md: CI trusts and the OIDC token exchange (RFC 8693) at the token endpoint. A local
// issuer on 127.0.0.1 signs the ID tokens; the server fetches its discovery document and keys
// under HOP_ALLOW_PRIVATE_URLS. The exchange goes through oauth4webapi, a standard OAuth client.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { GITHUB_ACTIONS_ISSUER, ID_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE, type CiTrust } from '@hop/shared';
import { ADMIN_TOKEN, client, eventually, fails, idPattern, ISO_MS, rawFails, succeeds, team, type Team } from '../helpers/api.js';
import { freePort, startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { githubClaims, newKey, startIssuer, type LocalIssuer } from '../helpers/oidc-issuer.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

let server: Awaited<ReturnType<typeof startServer>>;
let baseUrl: string;
let issuer: LocalIssuer;
let otherIssuer: LocalIssuer;

before(async () => {
  [issuer, otherIssuer] = await Promise.all([startIssuer(), startIssuer()]);
  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  server = await startServer({ dataDir: scratchDir('hop-ci-'), port, env: {
    HOP_BASE_URL: baseUrl, HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_LOG_LEVEL: 'info',
  } });
});
after(async () => {
  await server?.stop();
  await Promise.all([issuer?.close(), otherIssuer?.close()]);
});

/** The exchange as an OAuth client library sends it; answers the tokens or the RFC 6749 error. */
async function exchange(subjectToken: string, workspace?: string) {
  const as: oauth.AuthorizationServer = { issuer: baseUrl, token_endpoint: `${server.url}/v1/oauth/token` };
  const params: Record<string, string> = { subject_token: subjectToken, subject_token_type: ID_TOKEN_TYPE, ...(workspace ? { workspace } : {}) };
  const c: oauth.Client = { client_id: 'ci' };
  const res = await oauth.genericTokenEndpointRequest(as, c, oauth.None(), TOKEN_EXCHANGE_GRANT_TYPE, params, { [oauth.allowInsecureRequests]: true });
  try {
    return { ok: true as const, tokens: await oauth.processGenericTokenEndpointResponse(as, c, res), status: res.status };
  } catch (err) {
    assert.ok(err instanceof oauth.ResponseBodyError, `an RFC 6749 error body, not: ${String(err)}`);
    return { ok: false as const, status: err.status, error: err.error, description: err.error_description ?? '' };
  }
}

async function refused(subjectToken: string, check: RegExp, workspace?: string) {
  const r = await exchange(subjectToken, workspace);
  assert.equal(r.ok, false, 'the exchange is refused');
  if (r.ok) return;
  assert.equal(r.status, 401);
  assert.equal(r.error, 'invalid_grant');
  assert.match(r.description, check);
}

async function trust(t: Team, body: Record<string, unknown>): Promise<CiTrust> {
  const res = await succeeds(t.api, 'createCiTrust', { params: { workspaceId: t.workspaceId }, body: body as never });
  assert.equal(res.status, 201);
  return res.body.data;
}

const repo = (t: Team) => `acme/${t.slug}`;
const signed = (t: Team, extra = {}) => issuer.sign({ ...githubClaims(repo(t)), aud: baseUrl, ...extra });

test('a job of a trusted repository exchanges its ID token for a 15-minute token limited to the trust', async () => {
  const t = await team('pro', server.url);
  const receiver = await startReceiver();
  try {
    await t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url: receiver.url, events: ['ci.token_exchanged'] } });
    const created = await trust(t, { issuer: issuer.url, repository: repo(t), ref: 'refs/heads/main', scopes: ['links:read', 'links:write'] });
    assert.match(created.id, idPattern('cit'));
    assert.equal(created.lastUsedAt, null);
    assert.equal(created.createdBy, t.userId);

    const r = await exchange(await signed(t));
    assert.ok(r.ok, JSON.stringify(r));
    assert.match(r.tokens.access_token, /^hopci_[0-9A-Za-z]{43}$/);
    assert.equal(r.tokens.token_type, 'bearer');
    assert.ok(r.tokens.expires_in! <= 900 && r.tokens.expires_in! > 0);
    assert.equal(r.tokens.scope, 'links:read links:write');
    assert.equal(r.tokens.issued_token_type, 'urn:ietf:params:oauth:token-type:access_token');
    assert.equal(r.tokens.refresh_token, undefined, 'no refresh token: a job exchanges again');

    const ci = client({ token: r.tokens.access_token }, server.url);
    const { data: link } = await ci.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/from-ci' } });
    assert.equal(link.createdBy, t.userId, 'the token acts as the admin who added the trust');
    await fails(ci, 'listApiKeys', { params: { workspaceId: t.workspaceId } }, 'INSUFFICIENT_SCOPE', 403);
    const other = await team('free', server.url);
    await fails(ci, 'listLinks', { params: { workspaceId: other.workspaceId } }, 'NOT_FOUND', 404);

    const { data: shown } = await t.api.call('getCiTrust', { params: { workspaceId: t.workspaceId, trustId: created.id } });
    assert.match(String(shown.lastUsedAt), ISO_MS);

    const delivery = await eventually(async () => receiver.received.find((x) => x.body.includes('ci.token_exchanged')), 15_000, 'the ci.token_exchanged delivery');
    const event = JSON.parse(delivery.body) as { type: string; data: Record<string, unknown> };
    assert.equal(event.type, 'ci.token_exchanged');
    assert.equal(event.data.trustId, created.id);
    assert.equal(event.data.repository, repo(t));
    assert.equal(event.data.runId, '4242');
    assert.equal(event.data.workflow, '.github/workflows/links.yml');
    assert.ok(!delivery.body.includes(r.tokens.access_token), 'the event never carries the token');
    assert.ok(!server.output().includes(r.tokens.access_token), 'the server logs never carry the token');
  } finally {
    await receiver.close();
  }
});

test('every refusal is 401 invalid_grant naming the failed check', async () => {
  const t = await team('free', server.url);
  await trust(t, { issuer: issuer.url, repository: repo(t), ref: 'refs/heads/main', environment: 'production', workflow: '.github/workflows/links.yml', scopes: ['links:read'] });
  const prod = { environment: 'production' };
  assert.ok((await exchange(await signed(t, prod))).ok, 'the token that meets the trust passes');

  await refused('not-a-jwt', /^subject_token: /);
  await refused(await otherIssuer.sign({ ...githubClaims(repo(t)), aud: baseUrl, ...prod }), /^iss: no CI trust names the issuer/);
  await refused(await issuer.sign({ ...githubClaims('acme/elsewhere'), aud: baseUrl, ...prod }), /^repository: /);
  await refused(await signed(t, { ...prod, ref: 'refs/heads/feature' }), /^ref: the trust requires refs\/heads\/main/);
  await refused(await signed(t, { environment: 'staging' }), /^environment: /);
  await refused(await signed(t, { ...prod, workflow: 'Other', workflow_ref: `${repo(t)}/.github/workflows/other.yml@refs/heads/main` }), /^workflow: /);
  await refused(await issuer.sign({ ...githubClaims(repo(t)), aud: baseUrl, ...prod }, { expiresIn: -600 }), /^exp: /);
  await refused(await signed(t, { ...prod, aud: 'https://hop.example.com' }), /^aud: the ID token's audience must be http:\/\/localhost/);
  await refused(await signed(t, { ...prod, nbf: Math.floor(Date.now() / 1000) + 600 }), /^nbf: /);
  await refused(await issuer.sign({ ...githubClaims(repo(t)), aud: baseUrl, ...prod }, { key: await newKey('unpublished') }), /^kid: no key of .* has the id unpublished/);
  // A key the issuer publishes signs; a forged signature under its kid does not pass.
  const forged = await issuer.sign({ ...githubClaims(repo(t)), aud: baseUrl, ...prod }, { key: { ...(await newKey()), kid: issuer.published[0].kid } });
  await refused(forged, /^signature: /);
  // A token the issuer signs with another issuer's name is checked against that name's trusts and keys.
  await refused(await issuer.sign({ ...githubClaims(repo(t)), aud: baseUrl, ...prod }, { issuer: otherIssuer.url }), /^iss: /);
});

test('a removed trust exchanges no more, and the tokens it gave stop working', async () => {
  const t = await team('free', server.url);
  const created = await trust(t, { issuer: issuer.url, repository: repo(t), scopes: ['links:read'] });
  const r = await exchange(await signed(t));
  assert.ok(r.ok);
  const ci = client({ token: r.tokens.access_token }, server.url);
  await ci.call('listLinks', { params: { workspaceId: t.workspaceId } });
  const { data: removed } = await t.api.call('deleteCiTrust', { params: { workspaceId: t.workspaceId, trustId: created.id } });
  assert.equal(removed.id, created.id);
  await refused(await signed(t), /^repository: no CI trust names|^iss: no CI trust names/);
  const err = await fails(ci, 'listLinks', { params: { workspaceId: t.workspaceId } }, 'UNAUTHORIZED', 401);
  assert.match(err.message, /trust was removed/);
  await fails(t.api, 'getCiTrust', { params: { workspaceId: t.workspaceId, trustId: created.id } }, 'NOT_FOUND', 404);
});

test('a job trusted by two workspaces names the one it acts in', async () => {
  const a = await team('free', server.url);
  const b = await team('free', server.url);
  const repository = `acme/shared-${a.slug}`;
  await trust(a, { issuer: issuer.url, repository, scopes: ['links:read'] });
  await trust(b, { issuer: issuer.url, repository, scopes: ['links:write'] });
  const token = await issuer.sign({ ...githubClaims(repository), aud: baseUrl });
  await refused(token, /^workspace: trusts of 2 workspaces match/);
  const r = await exchange(token, b.slug);
  assert.ok(r.ok);
  assert.equal(r.tokens.workspace_id, b.workspaceId);
  assert.equal(r.tokens.scope, 'links:write');
});

test('GitLab CI tokens: project_path, a bare ref with ref_type, ci_config_ref_uri', async () => {
  const t = await team('free', server.url);
  await trust(t, { issuer: issuer.url, repository: `group/${t.slug}`, ref: 'refs/tags/v1.0', workflow: '.gitlab-ci.yml', scopes: ['links:read'] });
  const claims = {
    sub: `project_path:group/${t.slug}:ref_type:tag:ref:v1.0`, project_path: `group/${t.slug}`, ref: 'v1.0', ref_type: 'tag',
    ci_config_ref_uri: `gitlab.example/group/${t.slug}//.gitlab-ci.yml@refs/tags/v1.0`, pipeline_id: '77', aud: baseUrl,
  };
  assert.ok((await exchange(await issuer.sign(claims))).ok);
  await refused(await issuer.sign({ ...claims, ref_type: 'branch' }), /^ref: /);
});

test('trusts are an admin\'s, with keys:manage, and validated', async () => {
  const t = await team('free', server.url);
  const params = { workspaceId: t.workspaceId };
  const path = `/v1/workspaces/${t.workspaceId}/ci-trusts`;
  for (const body of [
    { scopes: ['links:read'] },
    { repository: 'acme/site', scopes: [] },
    { repository: 'acme/site', scopes: ['links:admin'] },
    { repository: 'acme/site', issuer: 'http://issuer.example.com', scopes: ['links:read'] },
    { repository: 'acme/site', issuer: 'not a url', scopes: ['links:read'] },
    { repository: 'acme/site', scopes: ['links:read'], audience: 'x' },
  ]) await rawFails(t.api, 'POST', path, { body }, 'VALIDATION_ERROR');
  const gh = await trust(t, { repository: 'acme/site', scopes: ['links:read'] });
  // Stored only: no token in these tests claims GitHub's issuer, so its keys are never fetched.
  assert.equal(gh.issuer, GITHUB_ACTIONS_ISSUER, 'GitHub Actions unless another issuer is named');
  const { data } = await t.api.call('listCiTrusts', { params });
  assert.deepEqual(data.map((x) => x.id), [gh.id]);
  const res = await fetch(`${server.url}/v1/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: TOKEN_EXCHANGE_GRANT_TYPE, subject_token: 'x', subject_token_type: 'urn:ietf:params:oauth:token-type:jwt' }),
  });
  assert.equal(res.status, 400);
  assert.deepEqual(await res.json(), { error: 'invalid_request', error_description: `subject_token_type must be ${ID_TOKEN_TYPE}` });
});
