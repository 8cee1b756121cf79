import { randomBase62 } from './ids.js';

// Request ids (the API's and the redirector's fast path's): a random prefix per process and a counter, so each costs no random bytes on the
// hot path and ids from several processes never collide.
const PREFIX = randomBase62(8);
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let counter = 0;
const GIVEN = /^[A-Za-z0-9._-]{8,64}$/;

function nextRequestId(): string {
  counter = (counter + 1) % 218_340_105_584_896; // 62^8
  let n = counter;
  let s = '';
  for (let i = 0; i < 8; i++) {
    s = ALPHABET[n % 62] + s;
    n = Math.floor(n / 62);
  }
  return `req_${PREFIX}${s}`;
}

/** The caller's `X-Request-Id` when it looks like one, so traces join up; else a fresh one. */
export function requestIdFor(given: string | string[] | undefined): string {
  return typeof given === 'string' && GIVEN.test(given) ? given : nextRequestId();
}
