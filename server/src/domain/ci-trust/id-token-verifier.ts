import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../clock.js';
import type { IssuerKeys } from './issuer-keys.js';
import { OidcRefusal } from './oidc-refusal.js';

/** Clocks of a CI runner and of Hop may differ a little; a minute is GitHub's and GitLab's own skew. */
export const CLOCK_TOLERANCE_SECONDS = 60;

/** Asymmetric algorithms only: an issuer's public keys verify, and `none` or HMAC never do. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/** The issuer a token claims, read before its signature is checked, to know whose keys to fetch. */
export function claimedIssuer(token: string): { issuer: string; kid: string | undefined } {
  let payload: JWTPayload;
  let kid: string | undefined;
  try {
    payload = decodeJwt(token);
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw new OidcRefusal('subject_token', 'is not a signed JWT (an OIDC ID token)');
  }
  if (typeof payload.iss !== 'string' || !payload.iss) throw new OidcRefusal('iss', 'the token names no issuer');
  return { issuer: payload.iss, kid };
}

/**
 * Verifies an ID token of `issuer`: its signature against the issuer's keys, `iss`, `aud` (this
 * server's public URL), `exp` and `nbf` with a small tolerance. Each failure names its check.
 */
export async function verifyIdToken(token: string, o: { issuer: string; kid: string | undefined; audience: string; keys: IssuerKeys; clock: Clock }): Promise<JWTPayload> {
  const getKey = await o.keys.forToken(o.issuer, o.kid);
  try {
    const { payload } = await jwtVerify(token, getKey, {
      issuer: o.issuer, audience: o.audience, algorithms: ALGORITHMS, clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: o.clock.now(), requiredClaims: ['exp', 'sub'],
    });
    return payload;
  } catch (err) {
    throw refusalOf(err, o);
  }
}

function refusalOf(err: unknown, o: { issuer: string; kid: string | undefined; audience: string }): OidcRefusal {
  if (err instanceof errors.JWTExpired) return new OidcRefusal('exp', 'the ID token expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return new OidcRefusal('aud', `the ID token's audience must be ${o.audience} (this server's URL)`);
    if (err.claim === 'nbf') return new OidcRefusal('nbf', 'the ID token is not valid yet');
    if (err.claim === 'iat') return new OidcRefusal('iat', 'the ID token was issued in the future');
    return new OidcRefusal(err.claim, err.reason === 'missing' ? 'the ID token lacks this claim' : err.message);
  }
  if (err instanceof errors.JWKSNoMatchingKey) {
    return new OidcRefusal('kid', `no key of ${o.issuer} has the id ${o.kid ?? '(none given)'}`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return new OidcRefusal('alg', 'the ID token is signed with an algorithm Hop does not accept');
  if (err instanceof errors.JWSSignatureVerificationFailed) return new OidcRefusal('signature', `the ID token's signature does not match ${o.issuer}'s key`);
  if (err instanceof errors.JOSEError) return new OidcRefusal('subject_token', err.message);
  throw err;
}
