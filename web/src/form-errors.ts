import type { z } from 'zod';
// The contract's schemas check with shared's words ("can't be empty", not the validator's "Too
// small: ..."): issue-messages.ts installs them when loaded. The app imports each schema from its
// own module of shared (not the index, which would build every schema), so every check goes
// through this file, which loads it.
import '@hop/shared/issue-messages';
import { HopApiError } from './api.js';

export type FieldErrors = Record<string, string>;

/**
 * Checks a form's values with the server's own schema; field errors by top-level name, and by
 * full path (`rules.0.url`) for a form that shows the elements of a list.
 */
export function check<S extends z.ZodType>(schema: S, values: unknown): { data: z.output<S>; errors: null } | { data: null; errors: FieldErrors } {
  const r = schema.safeParse(values);
  if (r.success) return { data: r.data, errors: null };
  const errors: FieldErrors = {};
  for (const issue of r.error.issues) {
    const key = String(issue.path[0] ?? 'form');
    errors[key] ??= issue.message;
    if (issue.path.length > 1) errors[issue.path.join('.')] ??= issue.message;
  }
  return { data: null, errors };
}

/** `maxClicks` or `body.expiredUrl` as a person reads it: `Max clicks`, `Expired url`. */
const fieldLabel = (path: string) => {
  const field = path.replace(/^(body|query|params)\.?/, '').split('.')[0] || 'Request';
  const words = field.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return words[0].toUpperCase() + words.slice(1);
};

/**
 * A VALIDATION_ERROR as a line a person reads: the first issue of each field, named as a label
 * (`Title: must be at most 256 characters`); the API's message for any other error.
 */
export function errorText(err: HopApiError): string {
  const issues = err.code === 'VALIDATION_ERROR' ? (err.details.issues as { path: string; message: string }[] | undefined) ?? [] : [];
  const first = new Map<string, string>();
  for (const i of issues) if (!first.has(i.path)) first.set(i.path, i.message);
  return first.size ? [...first].map(([path, message]) => `${fieldLabel(path)}: ${message}`).join('; ') : err.message;
}

/** The API's VALIDATION_ERROR issues (and SLUG_ALREADY_EXISTS's field), placed by the field they name. */
export function apiFieldErrors(err: unknown): FieldErrors {
  if (!(err instanceof HopApiError)) return {};
  const out: FieldErrors = {};
  const issues = err.details.issues as { path: string; message: string }[] | undefined;
  for (const i of issues ?? []) {
    const path = i.path.replace(/^body\.?/, '');
    const key = path.split('.')[0];
    if (key) out[key] ??= i.message;
    if (path !== key) out[path] ??= i.message;
  }
  const field = err.details.field as string | undefined;
  if (field) out[field] ??= err.message;
  return out;
}
