import { hash as sha256Of, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';

export const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const DAY_MS = 86_400_000;
/** How long before midnight the next day's salt is loaded. */
const PREFETCH_MS = 10 * 60_000;

/**
 * The daily salt that visitor hashes are made with. Every process reads the same salt for a day
 * from the database (the first to need it creates it); salts of past days are deleted, so a hash
 * can no longer be tied back to an IP once its day is over (docs/api.md, The redirector).
 */
export function createVisitorSalts(deps: { db: Queryable; clock: Clock }) {
  const { db, clock } = deps;
  let cached: { day: string; salt: Promise<string> } | undefined;
  // The same salt once loaded, for callers that must not wait (the redirector's fast path), with
  // its day's bounds in milliseconds so that a visit compares numbers instead of formatting a date.
  let ready: { day: string; salt: string; from: number; until: number } | undefined;

  /**
   * The day's salt (32 random bytes in base64), created by the first process to ask; `prune`
   * deletes the days before it. On `q`: the caller's transaction where it holds one.
   */
  async function load(day: string, prune = true, q: Queryable = db): Promise<string> {
    await q.query('insert into visitor_salts (day, salt) values ($1, $2) on conflict (day) do nothing', [
      day, randomBytes(32).toString('base64'),
    ]);
    if (prune) await q.query('delete from visitor_salts where day < $1', [day]);
    const [row] = await q.query<{ salt: string }>('select salt from visitor_salts where day = $1', [day]);
    return row.salt;
  }

  // The next day's salt, loaded in the last minutes of a day: at midnight the fast path then has
  // it at once. Without it, every visit of the first moments of a day, cached links included, went
  // through the router and waited for the database (or, embedded, its worker) to create the salt.
  let upcoming: { day: string; salt: string; from: number; until: number } | undefined;
  let fetchingUpcoming = false;
  function prefetch(until: number) {
    if (fetchingUpcoming || upcoming?.from === until) return;
    fetchingUpcoming = true;
    const day = utcDay(new Date(until));
    load(day, false).then((salt) => (upcoming = { day, salt, from: until, until: until + DAY_MS }), () => {})
      .finally(() => (fetchingUpcoming = false));
  }

  function today(): Promise<string> {
    const day = utcDay(clock.now());
    if (cached?.day !== day) {
      const salt = load(day);
      const from = Date.parse(`${day}T00:00:00.000Z`);
      salt.then((b) => (ready = { day, salt: b, from, until: from + DAY_MS }), () => (cached = undefined));
      cached = { day, salt };
    }
    return cached.salt;
  }

  // SHA-256 of the secret salt and the text, in one call: a keyed hash (the salt is secret, of fixed
  // length, and never leaves the servers) at a fraction of an HMAC's cost, on every redirect's
  // path. Length extension does not matter here: a hash is only
  // ever compared with another, never checked as a signature of something a visitor chose.
  const hash = (salt: string, text: string) => sha256Of('sha256', `${salt}\n${text}`, 'base64url').slice(0, 32);

  return {
    today,
    /**
     * The salt of the day holding `now` (milliseconds; the clock's time unless given) if it is
     * already loaded, without waiting; else undefined (and today's starts loading).
     */
    current(now = clock.now().getTime()): string | undefined {
      if (ready && now >= ready.from && now < ready.until) {
        if (now >= ready.until - PREFETCH_MS) prefetch(ready.until);
        return ready.salt;
      }
      if (upcoming && now >= upcoming.from && now < upcoming.until) {
        // The day has turned: the salt loaded ahead serves it, and today() answers it too.
        ready = upcoming;
        cached = { day: upcoming.day, salt: Promise.resolve(upcoming.salt) };
        return ready.salt;
      }
      void today().catch(() => {});
      return undefined;
    },
    /** A visitor under a given salt: the IP and user agent. The IP goes no further. */
    visitorHashWith: (salt: string, ip: string, userAgent: string) => hash(salt, `${ip}\n${userAgent}`),
    /** For password lockouts: the IP alone, so changing the user agent does not reset them. */
    async ipHash(ip: string): Promise<string> {
      return hash(await today(), `ip:${ip}`);
    },
    /**
     * Creates today's salt and destroys older ones (the midnight job), in the job's transaction:
     * the embedded database runs no statement outside an open transaction until it ends, so a
     * statement of the job's own on the database itself would wait for the job forever. The salt
     * is read again once that transaction has ended, so this process never keeps one that was
     * rolled back.
     */
    async rotate(tx: Queryable): Promise<void> {
      await load(utcDay(clock.now()), true, tx);
      cached = undefined;
      ready = undefined;
    },
  };
}

export type VisitorSalts = ReturnType<typeof createVisitorSalts>;
