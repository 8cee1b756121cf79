import type { z } from 'zod';
import { useFormSubmit, type FormOptions } from './form-submit.js';

/**
 * A form checked with the server's own schema, which loads (with zod) on the form's first focus
 * or, at the latest, its first submit: the page renders without building any schema. Pass
 * `preload` as the form's onFocus.
 */
export function useLazyCheckedForm<S extends z.ZodType, R>(load: () => Promise<S>, opts: FormOptions<z.output<S>, R>) {
  const checker = () => Promise.all([load(), import('./form-errors.js')]);
  const form = useFormSubmit<z.output<S>, R>(async (values) => {
    const [schema, { check }] = await checker();
    return check(schema, values);
  }, opts);
  return { ...form, preload: () => void checker().catch(() => undefined) };
}
