import { randomBytes } from 'node:crypto';
import type { IdPrefix } from '@hop/shared';

// Digits, then upper, then lower case: ASCII order, so ids sort by the time they were made.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn 4 KiB at a time and handed out in order, each byte once (as Node's
// randomUUID does): a call into the CSPRNG per id cost more than the rest of making it, and the
// click pipeline makes two ids per event.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolAt = 0;
function randomByte(): number {
  if (poolAt >= pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolAt = 0;
  }
  return pool[poolAt++];
}

/** `n` random base62 characters, without modulo bias (bytes >= 248 are drawn again). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    const b = randomByte();
    if (b < 248) out += BASE62[b % 62];
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
