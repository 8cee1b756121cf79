import { readFileSync } from 'node:fs';
import { UsageError } from './errors.js';

/**
 * `--field key=value` as `gh api -F` reads it: `true`, `false`, `null` and integers become JSON
 * values, `@file` reads a file (`@-` stdin); `key[]=v` appends to a list. `--raw-field` keeps the
 * value a string.
 */
export function fieldsToObject(fields: readonly string[], rawFields: readonly string[], readStdin: () => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (pair: string, typed: boolean) => {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new UsageError(`"${pair}" is not key=value`);
    const key = pair.slice(0, eq);
    const value = typed ? typedValue(pair.slice(eq + 1), readStdin) : pair.slice(eq + 1);
    if (key.endsWith('[]')) {
      const list = (out[key.slice(0, -2)] ??= []);
      if (!Array.isArray(list)) throw new UsageError(`${key.slice(0, -2)} is given both as a value and as a list`);
      list.push(value);
    } else out[key] = value;
  };
  for (const pair of fields) put(pair, true);
  for (const pair of rawFields) put(pair, false);
  return out;
}

function typedValue(text: string, readStdin: () => string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?(0|[1-9]\d{0,14})$/.test(text)) return Number(text);
  if (text.startsWith('@')) return text === '@-' ? readStdin() : readFileSync(text.slice(1), 'utf8');
  return text;
}

/** Fields as a query string, for a GET or DELETE (lists joined with commas, as the API takes them). */
export function toQuery(fields: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) params.set(k, Array.isArray(v) ? v.join(',') : String(v));
  const query = params.toString();
  return query ? `?${query}` : '';
}
