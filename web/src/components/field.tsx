import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with its hint and its error (announced) beneath it. */
export function Field({ label, error, hint, ...input }: FieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {hint ? <small id={`${id}-hint`} className="hint">{hint}</small> : null}
      {error ? <small id={`${id}-error`} role="alert" className="field-error">{error}</small> : null}
    </div>
  );
}

interface SelectProps extends React.SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  options: readonly (string | { value: string; label: string })[];
  error?: string;
}

export function SelectField({ label, options, error, ...select }: SelectProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-describedby={error ? `${id}-error` : undefined} {...select}>
        {options.map((o) => (typeof o === 'string' ? <option key={o} value={o}>{o}</option> : <option key={o.value} value={o.value}>{o.label}</option>))}
      </select>
      {error ? <small id={`${id}-error`} role="alert" className="field-error">{error}</small> : null}
    </div>
  );
}
