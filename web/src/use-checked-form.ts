import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { check } from './form-errors.js';
import { apiFieldErrors, type FieldErrors } from './api-errors.js';

/** What the form needs of a `useMutation` result (queries/): send, and its state. */
export interface FormMutation<B, R> {
  mutate(body: B, opts: { onSuccess: (result: R) => unknown; onError: (err: unknown) => unknown }): void;
  error: unknown;
  isPending: boolean;
}

/**
 * A form checked with the server's own schema before its mutation sends anything. Errors from
 * the check, and the field errors of the API's answer, show at their fields; `alert` is the error
 * no field shows. On success `onSuccess` runs with the form as it was sent, then the form is cleared.
 */
export function useCheckedForm<S extends z.ZodType, R>(schema: S, opts: {
  read: (form: FormData) => unknown;
  mutation: FormMutation<z.output<S>, R>;
  onSuccess?: (result: R, form: HTMLFormElement) => unknown;
  /** Keep what was typed after success (a form that stays filled, such as a rename). */
  keepValues?: boolean;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const { mutation } = opts;
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const checked = check(schema, opts.read(new FormData(form)));
    setErrors(checked.errors ?? {});
    if (!checked.data) return;
    mutation.mutate(checked.data, {
      onSuccess: async (result) => {
        await opts.onSuccess?.(result, form);
        if (!opts.keepValues) form.reset();
      },
      onError: (err) => setErrors(apiFieldErrors(err)),
    });
  };
  return { onSubmit, errors, alert: Object.keys(errors).length ? null : mutation.error, busy: mutation.isPending };
}
