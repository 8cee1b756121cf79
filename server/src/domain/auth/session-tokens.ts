import { SignJWT, jwtVerify, errors } from 'jose';
import type { Clock } from '../clock.js';

/** Dashboard sessions last 12 hours (docs/api.md, Access). */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;
const ISSUER = 'hop';
const AUDIENCE = 'hop-session';
/** Tokens whose signature was verified, kept so a busy client's next calls skip the HMAC. */
const VERIFIED_CACHE_SIZE = 10_000;

/** What a session token names: its user and its server-side record (sessions-service.ts). */
export interface SessionClaims {
  userId: string;
  sessionId: string;
}

/**
 * The dashboard-session JWT: HS256 over the server secret, subject = user id, `sid` = the session
 * record, which must still exist for the token to be good (sessions-service.ts).
 */
export function createSessionTokens(deps: { secret: Uint8Array; clock: Clock }) {
  const { secret, clock } = deps;
  const verified = new Map<string, SessionClaims & { exp: number }>();
  return {
    async sign(claims: SessionClaims): Promise<{ token: string; expiresAt: Date }> {
      const now = Math.floor(clock.now().getTime() / 1000);
      const exp = now + SESSION_TTL_SECONDS;
      const token = await new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(secret);
      return { token, expiresAt: new Date(exp * 1000) };
    },

    /**
     * The claims of a well-signed, unexpired session token, or null for anything else (bad,
     * expired, foreign, or made before sessions had records). Whether its session still stands
     * is the session record's to say.
     * A token verified once is remembered (by its exact text) with its expiry, which is checked
     * again at every use: the answer is the one jose would give, without a WebCrypto HMAC, a key
     * import and a thread-pool round trip per request, which would be a large share of a cheap
     * request's CPU.
     */
    async verify(token: string): Promise<SessionClaims | null> {
      const known = verified.get(token);
      if (known) {
        // As jose decides: valid while exp is after the current whole second.
        if (known.exp > Math.floor(clock.now().getTime() / 1000)) return { userId: known.userId, sessionId: known.sessionId };
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, secret, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: clock.now(),
          // A session token without an expiry would be good forever (docs/api.md, Access): refused.
          requiredClaims: ['exp', 'sub'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        const claims = { userId: payload.sub, sessionId: payload.sid };
        // Only tokens like those sign() makes are remembered: an expiry, and no not-before.
        if (typeof payload.exp === 'number' && payload.nbf === undefined) {
          if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
          verified.set(token, { ...claims, exp: payload.exp });
        }
        return claims;
      } catch (err) {
        if (err instanceof errors.JOSEError) return null;
        throw err;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;
