// Rate-limit windows are fixed (a minute, scaled by HOP_RATE_LIMIT_SCALE), so a test that spends
// one and then starts a CLI run races the window's end: on a slow host the run's first request can
// land in the next window and pass. Tests spend a window with this instead.
import assert from 'node:assert/strict';
import type { HopClient } from '@hop/shared/client';

/**
 * Spends the rest of the caller's rate-limit window with GETs of `path` and returns while at least
 * `marginMs` of it remain (waiting for the next window and spending it too when less is left), so
 * that a CLI run started now meets a 429 on its first request however slow this host is.
 */
export async function spendWindow(api: HopClient, path: string, marginMs = 3000): Promise<void> {
  for (;;) {
    const res = await api.raw('GET', path);
    if (res.status === 200) continue;
    assert.equal(res.status, 429, res.text);
    const { window, resetAt } = (res.body as { error: { details: { window: string; resetAt: string } } }).error.details;
    assert.equal(window, '1m', 'the minute refused, not the hour');
    const left = Date.parse(resetAt) - Date.now();
    if (left >= marginMs) return;
    await new Promise((r) => setTimeout(r, left + 50));
  }
}

/**
 * Waits, when less than `marginMs` is left of the current fixed window of `windowMs` (windows
 * start at multiples of their length, server/src/domain/rate-limits/rate-limiter.ts), for the
 * next one to begin: a test that counts requests up to a limit must not have the count split by
 * a window's end (a minute's 60 exchanges straddling it let the 61st through).
 */
export async function awayFromWindowEdge(windowMs = 60_000, marginMs = 15_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 50));
}
