import type { z } from 'zod';
// The contract's schemas check with shared's words ("can't be empty", not the validator's "Too
// small: ..."): issue-messages.ts installs them when loaded. The app imports each schema from its
// own module of shared (not the index, which would build every schema), so every check goes
// through this file, which loads it.
import '@hop/shared/issue-messages';
import type { FieldErrors } from './api-errors.js';

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
