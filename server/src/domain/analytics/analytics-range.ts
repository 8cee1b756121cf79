import { validationError } from '../errors.js';

const DAY_MS = 86_400_000;
export const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (input: string) => Date.parse(`${input.slice(0, 10)}T00:00:00.000Z`);

export interface DayRange {
  start: string;
  end: string;
  days: string[];
}

/**
 * The inclusive UTC days to report: `days` back from today (default 30), or `start`..`end`, cut
 * to what the plan retains (docs/api.md, Analytics; null: everything).
 */
export function resolveRange(q: { days?: number; start?: string; end?: string }, now: Date, retentionDays: number | null): DayRange {
  const today = dayStart(now.toISOString());
  let end = q.end ? dayStart(q.end) : today;
  let start = q.start ? dayStart(q.start) : end - ((q.days ?? 30) - 1) * DAY_MS;
  if (end > today) end = today;
  if (start > end) throw validationError('start', 'must not be after end');
  if ((end - start) / DAY_MS + 1 > 730) throw validationError('start', 'the range may span at most 730 days');
  const oldestKept = retentionDays === null ? -Infinity : today - (retentionDays - 1) * DAY_MS;
  if (start < oldestKept) start = oldestKept;
  if (end < start) end = start;
  const days: string[] = [];
  for (let d = start; d <= end; d += DAY_MS) days.push(toDay(d));
  return { start: toDay(start), end: toDay(end), days };
}

/** The first day of the ISO week (Monday) or the month of a day, for week and month groupings. */
export function bucketOf(day: string, group: 'week' | 'month'): string {
  if (group === 'month') return `${day.slice(0, 7)}-01`;
  const t = dayStart(day);
  const weekday = (new Date(t).getUTCDay() + 6) % 7;
  return toDay(t - weekday * DAY_MS);
}
