/** Attempt n (2..5) waits 2 s × 4^(n-2) after the previous one: 2, 8, 32, 128 s (docs/api.md). */
export const MAX_ATTEMPTS = 5;

/**
 * Delay before the next attempt after `attemptsMade` attempts. `scale` shrinks the whole schedule
 * (HOP_WEBHOOK_RETRY_SCALE) so tests run the real schedule in seconds.
 */
export function retryDelayMs(attemptsMade: number, scale = 1): number {
  return 2000 * 4 ** (attemptsMade - 1) * scale;
}

/** Exhausted deliveries in a row that disable a webhook. */
export const DISABLE_AFTER_FAILURES = 10;
