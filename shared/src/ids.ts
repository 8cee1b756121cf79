import { z } from 'zod';

/**
 * Type prefixes of every identifier (docs/api.md, Wire conventions). `oac` is an OAuth client,
 * `oag` a grant (a user's consent to one), `ses` a sign-in session, `cit` a CI trust.
 */
export const ID_PREFIXES = ['usr', 'ws', 'lnk', 'qr', 'dom', 'wh', 'evt', 'dlv', 'key', 'inv', 'oac', 'oag', 'ses', 'cit'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** An identifier: its prefix, an underscore, then at least 16 base62 characters. */
export function idSchema(prefix: IdPrefix) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9A-Za-z]{16,}$`), `must be an id starting with ${prefix}_`)
    .meta({ example: `${prefix}_0Ppq8sWb3c1Fz9Xk2Lm4` });
}

/** ISO 8601 UTC timestamp with milliseconds, as every response writes it. */
export const TimestampSchema = z.iso.datetime({ offset: true }).meta({ example: '2026-11-25T10:00:00.000Z' });
