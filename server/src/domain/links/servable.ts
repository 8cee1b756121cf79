/**
 * What a visit of a link gets before its rules are read, decided in one place for the redirector's
 * fast path, its router, `resolve` and the `status` field of the API:
 *
 * - `expired`: past `expiresAt` (its expiredUrl, else the 410 page);
 * - `limit_reached`: `clicks` is known and has reached `maxClicks`;
 * - `locked`: a password, and the visitor has not unlocked it;
 * - `limited`: a click limit whose counter only the database knows: the visit consumes one click
 *   atomically there (or, for a bot or HEAD, checks it) before it is served;
 * - `active`: served from what the link says, nothing to ask.
 *
 * Expiry wins over everything, then a limit already reached, then the password, so a visitor is
 * never asked for the password of a link that cannot be served.
 */
export type Servability = 'active' | 'expired' | 'limit_reached' | 'locked' | 'limited';

export interface ServableLink {
  expiresAt: number | null;
  maxClicks: number | null;
  passwordHash: string | null;
  /** The link's human clicks when known (the API reads them); the redirector does not know them. */
  clicks?: number;
}

export function servable(link: ServableLink, now: number, unlocked?: () => boolean): Servability {
  if (link.expiresAt != null && link.expiresAt <= now) return 'expired';
  if (link.maxClicks != null && link.clicks != null && link.clicks >= link.maxClicks) return 'limit_reached';
  if (link.passwordHash && !unlocked?.()) return 'locked';
  if (link.maxClicks != null && link.clicks == null) return 'limited';
  return 'active';
}
