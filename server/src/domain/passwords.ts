import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import pLimit from 'p-limit';

// scrypt with N=2^15, r=8, p=1 (about 32 MiB of memory a hash): OWASP's floor for scrypt.
const N = 32768;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

/**
 * Who a slow hash is for. Each lane runs a bounded number of scrypts at a time per process: a
 * flood of guesses on link passwords queues behind itself and never in front of a person logging
 * in (and the reverse), and one of libuv's four threads always stays free for files, DNS and zlib.
 */
export type HashLane = 'accounts' | 'links';
export const HASH_CONCURRENCY: Record<HashLane, number> = { accounts: 2, links: 1 };
const lanes: Record<HashLane, ReturnType<typeof pLimit>> = {
  accounts: pLimit(HASH_CONCURRENCY.accounts),
  links: pLimit(HASH_CONCURRENCY.links),
};

/** Hashes running now, and the most ever running at once, per lane (the tests read these). */
export const hashStats = { running: { accounts: 0, links: 0 }, peak: { accounts: 0, links: 0 } };

function derive(password: string, salt: Buffer, n: number, r: number, p: number, lane: HashLane): Promise<Buffer> {
  return lanes[lane](async () => {
    hashStats.running[lane]++;
    hashStats.peak[lane] = Math.max(hashStats.peak[lane], hashStats.running[lane]);
    try {
      return await new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      );
    } finally {
      hashStats.running[lane]--;
    }
  });
}

/** Hashes waiting for their lane. */
export const hashesWaiting = (lane: HashLane) => lanes[lane].pendingCount;

/** A self-describing slow hash: `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string, lane: HashLane = 'accounts'): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P, lane);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string, lane: HashLane = 'accounts'): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p), lane);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// A hash of a password nobody has, so that logins for unknown e-mails take as long as real ones.
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}
