import { randomBase62 } from './ids.js';

// Request ids (the API's and the redirector's fast path's): a random prefix per process and a counter, so each costs no random bytes on the
// hot path and ids from several processes never collide.
const PREFIX = randomBase62(8);
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let counter = 0;
const GIVEN = /^[A-Za-z0-9._-]{8,64}$/;

/** Every two-character tail, so an id costs one division and two concatenations. */
const PAIRS = Array.from({ length: 62 * 62 }, (_, i) => ALPHABET[Math.floor(i / 62)] + ALPHABET[i % 62]);
const PAIRS_SPAN = 62 * 62;
/** The id's first six counter characters, formatted again only when they change. */
let head = '';
let headOf = -1;

function nextRequestId(): string {
  counter = (counter + 1) % 218_340_105_584_896; // 62^8
  const high = Math.floor(counter / PAIRS_SPAN);
  if (high !== headOf) {
    let n = high;
    let s = '';
    for (let i = 0; i < 6; i++) {
      s = ALPHABET[n % 62] + s;
      n = Math.floor(n / 62);
    }
    head = `req_${PREFIX}${s}`;
    headOf = high;
  }
  return head + PAIRS[counter % PAIRS_SPAN];
}

/** The caller's `X-Request-Id` when it looks like one, so traces join up; else a fresh one. */
export function requestIdFor(given: string | string[] | undefined): string {
  return typeof given === 'string' && GIVEN.test(given) ? given : nextRequestId();
}
