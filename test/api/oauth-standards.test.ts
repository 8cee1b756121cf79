// The authorization server as a standard OAuth client reads it (oauth4webapi): RFC 6749 errors
// from every protocol endpoint whatever went wrong with the body, RFC 6750 challenges on refused
// Bearer tokens, and RFC 9207's `iss` on every authorization response, errors included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { API_URL, signup } from '../helpers/api.js';
import { authorizeSession, authorizeUrl, CLI_CLIENT, pkce } from '../helpers/oauth.js';

const REDIRECT_URI = 'http://127.0.0.1:45678/callback';
const client: oauth.Client = { client_id: CLI_CLIENT, token_endpoint_auth_method: 'none' };

/**
 * The metadata as published (its issuer is the server's HOP_BASE_URL), with requests sent to the
 * test server's address and passed through `alter` first: how a test sends what a broken client
 * or proxy would.
 */
async function discover(alter: (init: RequestInit) => RequestInit = (i) => i) {
  const published = await (await fetch(`${API_URL}/.well-known/oauth-authorization-server`)).json() as { issuer: string };
  const issuer = new URL(published.issuer);
  const options = {
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: (url: string, init: RequestInit) => fetch(url.replace(published.issuer, API_URL), init.method === 'POST' ? alter(init) : init),
  };
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...options }));
  return { as, options };
}

/** The error oauth4webapi raised reading the response: it must be RFC 6749's, with this status. */
async function oauthError(call: () => Promise<unknown>, status: number) {
  const err = await call().then(() => new Error('the request succeeded'), (e: unknown) => e);
  assert.ok(err instanceof oauth.ResponseBodyError, `an RFC 6749 error body, not: ${String(err)}`);
  assert.equal(err.status, status);
  assert.equal(err.error, 'invalid_request');
  assert.ok(err.error_description, 'error_description says what was wrong');
  return err;
}

const withBody = (body: string, contentType?: string) => (init: RequestInit): RequestInit => {
  const headers = new Headers(init.headers);
  if (contentType) headers.set('content-type', contentType);
  return { ...init, headers, body };
};

test('the token, revocation and device endpoints answer 413, 415 and malformed bodies as RFC 6749 errors', async () => {
  const exchange = async (alter: (init: RequestInit) => RequestInit) => {
    const { as, options } = await discover(alter);
    const params = oauth.validateAuthResponse(as, client, new URLSearchParams({ code: 'x', iss: as.issuer }), oauth.skipStateCheck);
    const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, pkce().verifier, options);
    return oauth.processAuthorizationCodeResponse(as, client, res);
  };
  await oauthError(() => exchange(withBody('grant_type=authorization_code', 'application/xml')), 415);
  await oauthError(() => exchange(withBody(`grant_type=authorization_code&pad=${'x'.repeat(20_000)}`)), 413);
  await oauthError(() => exchange(withBody('{"grant_type":', 'application/json')), 400);
  // What a well-formed request that fails looks like, for comparison: still RFC 6749's.
  const wrong = await exchange((i) => i).then(() => null, (e: unknown) => e);
  assert.ok(wrong instanceof oauth.ResponseBodyError && wrong.error === 'invalid_grant', String(wrong));

  const revoke = async (alter: (init: RequestInit) => RequestInit) => {
    const { as, options } = await discover(alter);
    return oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), 'hopat_x', options));
  };
  await oauthError(() => revoke(withBody('token=x', 'application/xml')), 415);
  await oauthError(() => revoke(withBody(`token=${'x'.repeat(20_000)}`)), 413);

  const device = async (alter: (init: RequestInit) => RequestInit) => {
    const { as, options } = await discover(alter);
    return oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, oauth.None(), {}, options));
  };
  await oauthError(() => device(withBody(`client_id=${CLI_CLIENT}`, 'application/xml')), 415);
  await oauthError(() => device(withBody('{', 'application/json')), 400);
});

test('the authorize page answers a body it cannot read with a page, not the API envelope', async () => {
  const url = authorizeUrl({ clientId: CLI_CLIENT, redirectUri: REDIRECT_URI, state: 's', challenge: pkce().challenge });
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: 'x' });
  assert.equal(res.status, 415);
  assert.match(String(res.headers.get('content-type')), /^text\/html/);
  assert.match(await res.text(), /cannot be read/);
});

test('a refused Bearer token gets an RFC 6750 challenge with invalid_token; no credential gets the bare challenge', async () => {
  for (const token of ['hopat_not-a-token', 'not-a-session-token']) {
    const err = await oauth.protectedResourceRequest(token, 'GET', new URL(`${API_URL}/v1/me`), undefined, undefined, { [oauth.allowInsecureRequests]: true })
      .then(() => null, (e: unknown) => e);
    assert.ok(err instanceof oauth.WWWAuthenticateChallengeError, String(err));
    assert.equal(err.status, 401);
    const [challenge] = err.cause;
    assert.equal(challenge.scheme, 'bearer');
    assert.equal(challenge.parameters.realm, 'hop');
    assert.equal(challenge.parameters.error, 'invalid_token');
    assert.ok(challenge.parameters.error_description);
  }
  const malformed = await fetch(`${API_URL}/v1/me`, { headers: { authorization: 'Token abc' } });
  assert.equal(malformed.status, 401);
  assert.match(String(malformed.headers.get('www-authenticate')), /^Bearer realm="hop", error="invalid_request", error_description="[^"]+"$/);
  const none = await fetch(`${API_URL}/v1/me`);
  assert.equal(none.status, 401);
  assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="hop"', 'no error code when no credential was sent (RFC 6750 3.1)');
});

test('RFC 9207: the metadata says so, and error redirects carry iss as success does', async () => {
  const { as } = await discover();
  assert.equal(as.authorization_response_iss_parameter_supported, true);

  // An error found before anyone signs in: redirected, with iss.
  const bad = await fetch(authorizeUrl({ clientId: CLI_CLIENT, redirectUri: REDIRECT_URI, state: 'st', scope: 'links:fly', challenge: pkce().challenge }), { redirect: 'manual' });
  assert.equal(bad.status, 302);
  const badErr = (() => {
    try {
      oauth.validateAuthResponse(as, client, new URL(bad.headers.get('location')!), 'st');
      return null;
    } catch (e) {
      return e;
    }
  })();
  assert.ok(badErr instanceof oauth.AuthorizationResponseError, `an authorization error with a valid iss, not: ${String(badErr)}`);
  assert.equal(badErr.error, 'invalid_scope');

  // The user denies: redirected, with iss.
  const account = await signup();
  const s = authorizeSession(authorizeUrl({ clientId: CLI_CLIENT, redirectUri: REDIRECT_URI, state: 'st2', challenge: pkce().challenge }));
  await s.get();
  assert.equal((await s.login(account)).status, 303);
  await s.get();
  const denied = await s.decide('deny');
  assert.equal(denied.status, 303);
  const deniedErr = (() => {
    try {
      oauth.validateAuthResponse(as, client, new URL(denied.location!), 'st2');
      return null;
    } catch (e) {
      return e;
    }
  })();
  assert.ok(deniedErr instanceof oauth.AuthorizationResponseError, `an authorization error with a valid iss, not: ${String(deniedErr)}`);
  assert.equal(deniedErr.error, 'access_denied');
});
