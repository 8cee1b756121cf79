// The API's errors in words, for every page: no zod here (unlike form-errors.ts, which checks forms
// with the contract's schemas), so a page that only shows errors does not load the validator.
import { HopApiError } from './api.js';

/** Form errors by field name (`url`), and by full path (`rules.0.url`) for a list's elements. */
export type FieldErrors = Record<string, string>;

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
