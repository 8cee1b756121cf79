import type { z } from 'zod';
import { check } from './form-errors.js';
import { useFormSubmit, type FormOptions } from './form-submit.js';

export type { FormMutation } from './form-submit.js';

/**
 * A form checked with the server's own schema before its mutation sends anything (see
 * useFormSubmit). The schema is built when the page loads; a page that should not wait for zod
 * uses useLazyCheckedForm.
 */
export function useCheckedForm<S extends z.ZodType, R>(schema: S, opts: FormOptions<z.output<S>, R>) {
  return useFormSubmit<z.output<S>, R>((values) => check(schema, values), opts);
}
