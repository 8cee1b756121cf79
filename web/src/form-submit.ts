import { useState, type FormEvent } from 'react';
import { apiFieldErrors, type FieldErrors } from './api-errors.js';

/** What the form needs of a `useMutation` result (queries/): send, and its state. */
export interface FormMutation<B, R> {
  mutate(body: B, opts: { onSuccess: (result: R) => unknown; onError: (err: unknown) => unknown }): void;
  error: unknown;
  isPending: boolean;
}

/** A check's answer: the body to send, or the errors to show at their fields. */
export type Checked<B> = { data: B; errors: null } | { data: null; errors: FieldErrors };

export interface FormOptions<B, R> {
  read: (form: FormData) => unknown;
  mutation: FormMutation<B, R>;
  onSuccess?: (result: R, form: HTMLFormElement) => unknown;
  /** Keep what was typed after success (a form that stays filled, such as a rename). */
  keepValues?: boolean;
}

/**
 * A form whose values are checked before its mutation sends anything; the check may answer at once
 * or later (when its schema loads on first use). Errors from the check, and the field errors of
 * the API's answer, show at their fields; `alert` is the error no field shows. On success
 * `onSuccess` runs with the form as it was sent, then the form is cleared.
 */
export function useFormSubmit<B, R>(checker: (values: unknown) => Checked<B> | Promise<Checked<B>>, opts: FormOptions<B, R>) {
  const [errors, setErrors] = useState<FieldErrors>({});
  // The check itself could not run (its chunk did not load): said in the form's alert.
  const [failed, setFailed] = useState<unknown>(null);
  const { mutation } = opts;
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setFailed(null);
    const send = (checked: Checked<B>) => {
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
    const checked = checker(opts.read(new FormData(form)));
    if (checked instanceof Promise) void checked.then(send, setFailed);
    else send(checked);
  };
  return { onSubmit, errors, alert: failed ?? (Object.keys(errors).length ? null : mutation.error), busy: mutation.isPending };
}
