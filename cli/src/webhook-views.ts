import { Flags } from '@oclif/core';
import { EVENT_TYPES, type Delivery, type Webhook } from '@hop/shared';
import { EXIT } from './errors.js';
import type { IO } from './io.js';
import { dateColumn, printRecord, type Column } from './render.js';

/** `--event` of `webhooks create` and `update`: repeat for several. */
export const eventFlag = (required = false) =>
  Flags.string({ char: 'e', multiple: true, multipleNonGreedy: true, required, options: [...EVENT_TYPES], description: 'an event to send; repeat for several' });

export const webhookColumns: Column<Webhook>[] = [
  { header: 'ID', value: (w) => w.id },
  { header: 'URL', value: (w) => w.url, cutTo: 20 },
  { header: 'EVENTS', value: (w) => w.events, cutTo: 12, drop: 3 },
  { header: 'ACTIVE', value: (w) => (w.isActive ? 'yes' : w.disabledAt ? 'disabled' : 'no') },
  { header: 'FAILURES', value: (w) => w.consecutiveFailures, drop: 5 },
  dateColumn('CREATED', (w) => w.createdAt),
];

export const webhookRecord = (w: Webhook) => ({
  id: w.id,
  url: w.url,
  description: w.description,
  events: w.events,
  isActive: w.isActive,
  consecutiveFailures: w.consecutiveFailures,
  disabledAt: w.disabledAt,
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
});

const lastAttempt = (d: Delivery) => {
  const a = d.attempts.at(-1);
  if (!a) return '';
  return a.statusCode !== null ? `${a.statusCode} (${a.durationMs} ms)` : (a.error ?? '');
};

export const deliveryColumns: Column<Delivery>[] = [
  { header: 'ID', value: (d) => d.id },
  { header: 'EVENT', value: (d) => d.eventType, cutTo: 12 },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'ATTEMPTS', value: (d) => d.attempts.length, drop: 4 },
  { header: 'LAST ANSWER', value: lastAttempt, cutTo: 12, drop: 3 },
  dateColumn('NEXT ATTEMPT', (d) => d.nextAttemptAt, 6),
  dateColumn('CREATED', (d) => d.createdAt),
];

export const deliveryRecord = (d: Delivery) => ({
  id: d.id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts.length,
  lastAnswer: lastAttempt(d),
  nextAttemptAt: d.nextAttemptAt,
  createdAt: d.createdAt,
});

const GRACE = /^(\d+)\s*(s|m|h|d)?$/;
const UNIT_S = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;

/** `--grace` of `rotate-secret`: seconds (`3600`) or a duration (`90m`, `1h`, `1d`), at most a day. */
export const graceFlag = Flags.custom<number>({
  helpValue: '<seconds|duration>',
  parse: async (input) => {
    const m = GRACE.exec(input.trim());
    if (!m) throw new Error(`"${input}" is neither a number of seconds nor a duration like 30m, 1h, 1d`);
    const seconds = Number(m[1]) * UNIT_S[(m[2] ?? 's') as keyof typeof UNIT_S];
    if (seconds > 86_400) throw new Error('the grace period is at most a day (86400 s)');
    return seconds;
  },
});

/**
 * The answer to a sample event (`webhooks test`, `webhooks trigger`): printed (or the JSON), and a
 * failed command when the endpoint did not answer 2xx, since the answer is still what was asked for.
 */
export function reportSampleAnswer<T extends { success: boolean; statusCode: number | null; error: string | null }>(
  cmd: { io: IO; json: boolean; logJson(o: unknown): void; exit(code: number): never },
  data: T,
): T {
  if (data.success) {
    if (!cmd.json) printRecord(cmd.io, data);
    return data;
  }
  if (cmd.json) cmd.logJson(data);
  else printRecord(cmd.io, data);
  cmd.io.err(`Error: the endpoint answered ${data.statusCode ?? 'nothing'}${data.error ? `: ${data.error}` : ''}\n`);
  return cmd.exit(EXIT.error);
}
