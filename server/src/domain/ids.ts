import { randomBytes } from 'node:crypto';
import type { IdPrefix } from '@hop/shared';

// Digits, then upper, then lower case: ASCII order, so ids sort by the time they were made.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `n` random base62 characters, without modulo bias (bytes >= 248 are drawn again). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248 && out.length < n) out += BASE62[b % 62];
    }
  }
  return out;
}

function timePart(ms: number): string {
  let s = '';
  for (let i = 0; i < 8; i++) {
    s = BASE62[ms % 62] + s;
    ms = Math.floor(ms / 62);
  }
  return s;
}

export type IdGenerator = (prefix: IdPrefix) => string;

/** Prefix, 8 characters of creation time, 14 random: 22 characters, sortable by creation. */
export const newId: IdGenerator = (prefix) => `${prefix}_${timePart(Date.now())}${randomBase62(14)}`;
