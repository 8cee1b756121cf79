/**
 * Windows over attempt times, shared by the link-password lockouts and the account password
 * limiter. A lockout rule (`lockMs`) trips when `count` attempts fell within `windowMs` of each
 * other, and then refuses until `lockMs` after the newest of them. A plain rate limit (no
 * `lockMs`) refuses while `count` attempts lie within the last `windowMs`, until the oldest of
 * them leaves it.
 */
export interface AttemptRule {
  count: number;
  windowMs: number;
  lockMs?: number;
}

/**
 * Seconds until a new attempt is allowed (0: now). `nthNewest(n)` is the time (ms since the epoch)
 * of the nth most recent attempt, 1 being the newest, or undefined when there were fewer.
 */
export function refusedForSeconds(nthNewest: (n: number) => number | undefined, rules: readonly AttemptRule[], now: number): number {
  let until = 0;
  for (const rule of rules) {
    const nth = nthNewest(rule.count);
    if (nth === undefined) continue;
    if (rule.lockMs === undefined) {
      if (now - nth < rule.windowMs) until = Math.max(until, nth + rule.windowMs);
    } else {
      const newest = nthNewest(1)!;
      if (newest - nth < rule.windowMs) until = Math.max(until, newest + rule.lockMs);
    }
  }
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

/** How many recent attempts the rules ever need to see. */
export const attemptsNeeded = (rules: readonly AttemptRule[]) => Math.max(...rules.map((r) => r.count));
/** How far back the rules ever look: a lockout's window plus its lock. */
export const lookback = (rules: readonly AttemptRule[]) => Math.max(...rules.map((r) => r.windowMs + (r.lockMs ?? 0)));
