import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { RedirectLink } from '../domain/links/redirect-links.js';

/** An unlocked link stays unlocked for a visitor for 24 hours (docs/api.md, The redirector). */
export const UNLOCK_TTL_SECONDS = 24 * 60 * 60;

export const unlockCookieName = (linkId: string) => `hop_pw_${linkId}`;

/**
 * Signed unlock cookies: `expiry.signature`, the signature covering the link, the expiry and a
 * fingerprint of the current password hash, so changing the password locks everyone out again.
 */
export function createUnlockCookies(secret: string) {
  const sign = (link: RedirectLink, exp: number) => {
    const fingerprint = createHash('sha256').update(link.passwordHash ?? '').digest('base64url').slice(0, 16);
    return createHmac('sha256', secret).update(`unlock.${link.id}.${exp}.${fingerprint}`).digest('base64url');
  };
  return {
    issue(link: RedirectLink, nowMs: number): string {
      const exp = Math.floor(nowMs / 1000) + UNLOCK_TTL_SECONDS;
      return `${exp}.${sign(link, exp)}`;
    },
    valid(link: RedirectLink, value: string | undefined, nowMs: number): boolean {
      if (!value) return false;
      const [expRaw, sig] = value.split('.');
      const exp = Number(expRaw);
      if (!Number.isInteger(exp) || exp * 1000 <= nowMs || !sig) return false;
      const expected = Buffer.from(sign(link, exp));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export type UnlockCookies = ReturnType<typeof createUnlockCookies>;
