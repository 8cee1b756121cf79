import { SignJWT, jwtVerify, errors } from 'jose';
import type { Clock } from '../clock.js';

/** Dashboard sessions last 12 hours (CONTRACT 2). */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;
const ISSUER = 'hop';
const AUDIENCE = 'hop-session';

/** The dashboard-session JWT: HS256 over the server secret, subject = user id. */
export function createSessionTokens(deps: { secret: Uint8Array; clock: Clock }) {
  const { secret, clock } = deps;
  return {
    async sign(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const now = Math.floor(clock.now().getTime() / 1000);
      const exp = now + SESSION_TTL_SECONDS;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(secret);
      return { token, expiresAt: new Date(exp * 1000) };
    },

    /** The user id of a valid session token, or null for anything else (bad, expired, foreign). */
    async verify(token: string): Promise<string | null> {
      try {
        const { payload } = await jwtVerify(token, secret, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: clock.now(),
        });
        return typeof payload.sub === 'string' ? payload.sub : null;
      } catch (err) {
        if (err instanceof errors.JOSEError) return null;
        throw err;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;
