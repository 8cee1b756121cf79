// An issuer's keys are fetched once and kept; rotation is picked up, random kids cannot force fetches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair, SignJWT, jwtVerify, type JWK } from 'jose';
import { createIssuerKeys } from './issuer-keys.js';
import { OidcRefusal } from './oidc-refusal.js';

const ISSUER = 'https://issuer.test';

async function key(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid } as JWK };
}

/** An issuer answered from memory: no connection is made. */
function documents(keys: { jwk: JWK }[]) {
  const fetched: string[] = [];
  const fetchJson = async (url: string) => {
    fetched.push(url);
    if (url === `${ISSUER}/.well-known/openid-configuration`) return { issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` };
    if (url === `${ISSUER}/jwks`) return { keys: keys.map((k) => k.jwk) };
    throw new Error('404');
  };
  return { fetched, fetchJson };
}

test('keys are kept; an unknown kid refetches them, at most once per 30 seconds', async () => {
  const a = await key('a');
  const b = await key('b');
  const published = [a];
  const { fetched, fetchJson } = documents(published);
  let now = 1_000_000;
  const keys = createIssuerKeys({ fetchJson, now: () => now });
  const jwt = (k: typeof a) => new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: k.kid }).sign(k.privateKey);

  await jwtVerify(await jwt(a), await keys.forToken(ISSUER, 'a'));
  await keys.forToken(ISSUER, 'a');
  assert.equal(fetched.length, 2, 'discovery and JWKS, once');

  // The issuer rotates to b within the cooldown: the kept keys answer, and b is not among them.
  published.push(b);
  now += 10_000;
  await assert.rejects(async () => jwtVerify(await jwt(b), await keys.forToken(ISSUER, 'b')), { code: 'ERR_JWKS_NO_MATCHING_KEY' });
  assert.equal(fetched.length, 2);
  // Past it, the unknown kid refetches.
  now += 30_000;
  await jwtVerify(await jwt(b), await keys.forToken(ISSUER, 'b'));
  assert.equal(fetched.length, 4);
  // Past the time keys are kept, they are fetched again whatever the kid.
  now += 11 * 60_000;
  await keys.forToken(ISSUER, 'a');
  assert.equal(fetched.length, 6);
});

test('a discovery document naming another issuer, or an unreadable one, is refused by name', async () => {
  const keys = createIssuerKeys({ fetchJson: async () => ({ issuer: 'https://elsewhere.test', jwks_uri: 'https://elsewhere.test/jwks' }) });
  await assert.rejects(keys.forToken(ISSUER, 'a'), (err: unknown) => err instanceof OidcRefusal && err.check === 'discovery' && /names the issuer https:\/\/elsewhere\.test/.test(err.why));
  const broken = createIssuerKeys({ fetchJson: async () => { throw new Error('answered 404, not 200'); } });
  await assert.rejects(broken.forToken(ISSUER, 'a'), (err: unknown) => err instanceof OidcRefusal && err.check === 'discovery' && /answered 404/.test(err.why));
});
