import { EVENT_TYPES } from '@hop/shared';
import { credentialKind } from '../config-store.js';
import { UsageError } from '../errors.js';
import type { IO } from '../io.js';

/** The credential as the API client sends it (docs/api.md, Access), for a request outside the client. */
export function credentialHeaders(credential: string, userAgent: string): Record<string, string> {
  return credentialKind(credential) === 'api-key'
    ? { 'x-api-key': credential, 'user-agent': userAgent }
    : { authorization: `Bearer ${credential}`, 'user-agent': userAgent };
}

/** `a,b` (or repeated flags) → event types, refusing unknown names before connecting. */
export function parseEventTypes(values: readonly string[] | undefined): string[] | undefined {
  const types = values?.flatMap((v) => v.split(',')).map((t) => t.trim()).filter(Boolean);
  if (!types?.length) return undefined;
  const unknown = types.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown) throw new UsageError(`unknown event type "${unknown}": one of ${EVENT_TYPES.join(', ')}`);
  return [...new Set(types)];
}

/** Aborts on Ctrl-C or SIGTERM, so a tail ends cleanly (exit 0) instead of being cut off. */
export function stopSignal(): AbortController {
  const ac = new AbortController();
  const stop = () => ac.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  ac.signal.addEventListener('abort', () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  });
  return ac;
}

/** One JSON object per line: what `--json` streams so CI can read events as they come. */
export function writeJsonLine(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Green and red where the IO object says colours show; plain text otherwise. */
export function painter(io: IO) {
  const color = (code: number) => (text: string) => (io.color ? `\x1b[${code}m${text}\x1b[39m` : text);
  return { green: color(32), red: color(31) };
}

/** HH:MM:SS in local time on a terminal; the full ISO time when piped, for logs and sorting. */
export function eventTime(iso: string | undefined, io: IO): string {
  const d = iso ? new Date(iso) : new Date();
  if (!io.stdoutIsTTY) return d.toISOString();
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}
