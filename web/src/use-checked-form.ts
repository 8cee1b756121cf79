import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFieldErrors, check, type FieldErrors } from './form-errors.js';

/**
 * A form checked with the server's own schema before anything is sent. Errors from the check,
 * and the field errors of the API's answer, show at their fields; `alert` is the error no field
 * shows. `onSuccess` runs before `busy` clears (so a redirect or a refresh is not raced by a
 * second submit) and gets the form, e.g. to reset it.
 */
export function useCheckedForm<S extends z.ZodType, R>(schema: S, opts: {
  read: (form: FormData) => unknown;
  send: (body: z.output<S>) => Promise<R>;
  onSuccess?: (result: R, form: HTMLFormElement) => unknown;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: ({ body }: { body: z.output<S>; form: HTMLFormElement }) => opts.send(body),
    onSuccess: (result, { form }) => opts.onSuccess?.(result, form),
    onError: (err) => setErrors(apiFieldErrors(err)),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const checked = check(schema, opts.read(new FormData(form)));
    setErrors(checked.errors ?? {});
    if (checked.data) mutation.mutate({ body: checked.data, form });
  };
  return { onSubmit, errors, alert: Object.keys(errors).length ? null : mutation.error, busy: mutation.isPending };
}
