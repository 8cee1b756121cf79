import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 4.1: 43-128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge is a base64url SHA-256: 43 characters. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Whether `verifier` is the one behind `challenge` (S256 only; `plain` is never accepted). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
