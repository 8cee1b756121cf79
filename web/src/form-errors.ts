import type { z } from 'zod';
import { HopApiError } from './api.js';

export type FieldErrors = Record<string, string>;

/** Checks a form's values with the server's own schema; field errors by top-level name. */
export function check<S extends z.ZodType>(schema: S, values: unknown): { data: z.output<S>; errors: null } | { data: null; errors: FieldErrors } {
  const r = schema.safeParse(values);
  if (r.success) return { data: r.data, errors: null };
  const errors: FieldErrors = {};
  for (const issue of r.error.issues) {
    const key = String(issue.path[0] ?? 'form');
    errors[key] ??= issue.message;
  }
  return { data: null, errors };
}

/** The API's VALIDATION_ERROR issues (and SLUG_ALREADY_EXISTS's field), placed by the field they name. */
export function apiFieldErrors(err: unknown): FieldErrors {
  if (!(err instanceof HopApiError)) return {};
  const out: FieldErrors = {};
  const issues = err.details.issues as { path: string; message: string }[] | undefined;
  for (const i of issues ?? []) {
    const key = i.path.replace(/^body\.?/, '').split('.')[0];
    if (key) out[key] ??= i.message;
  }
  const field = err.details.field as string | undefined;
  if (field) out[field] ??= err.message;
  return out;
}
