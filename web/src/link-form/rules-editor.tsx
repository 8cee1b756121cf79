import { DEVICES, MAX_RULES } from '@hop/shared/link-limits';
import type { FieldErrors } from '../api-errors.js';
import { Field } from '../components/field.js';
import { emptyRule, type RuleRow } from './body.js';

/** The first error under `prefix` (`rules.2.`), for the row it names. */
export const rowError = (errors: FieldErrors, prefix: string) => Object.entries(errors).find(([k]) => k.startsWith(prefix))?.[1];
/** The list's own error (`weights must sum to 100`) when no row has one. */
export const listError = (errors: FieldErrors, name: string) => (rowError(errors, `${name}.`) ? undefined : errors[name]);

/**
 * Rules in order: the first whose every condition matches the visitor sends them to its URL.
 * Lists (countries, OS, browsers, languages) are typed separated by commas.
 */
export function RulesEditor({ rows, onChange, errors }: { rows: RuleRow[]; onChange: (rows: RuleRow[]) => void; errors: FieldErrors }) {
  const set = (i: number, patch: Partial<RuleRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, by: number) => {
    const next = [...rows];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    onChange(next);
  };
  return (
    <fieldset className="plain smart-list" aria-describedby="rules-hint">
      <legend className="fieldset-label">Rules</legend>
      <p id="rules-hint" className="hint">Checked in order: the first rule whose every condition matches the visitor wins. Lists are separated by commas.</p>
      {rows.map((r, i) => {
        const err = (k: string) => errors[`rules.${i}.when.${k}`] ?? rowError(errors, `rules.${i}.when.${k}.`);
        const n = i + 1;
        return (
          <div key={i} className="card smart-row" role="group" aria-label={`Rule ${n}`}>
            <div className="grid-2">
              <Field label={`Rule ${n}: countries`} value={r.country} onChange={(e) => set(i, { country: e.target.value })} placeholder="DE, AT, CH" error={err('country')} />
              <Field label={`Rule ${n}: languages`} value={r.language} onChange={(e) => set(i, { language: e.target.value })} placeholder="de, fr" error={err('language')} />
              <Field label={`Rule ${n}: operating systems`} value={r.os} onChange={(e) => set(i, { os: e.target.value })} placeholder="iOS, Android" error={err('os')} />
              <Field label={`Rule ${n}: browsers`} value={r.browser} onChange={(e) => set(i, { browser: e.target.value })} placeholder="Safari, Chrome" error={err('browser')} />
              <Field label={`Rule ${n}: from`} type="datetime-local" value={r.after} onChange={(e) => set(i, { after: e.target.value })} error={err('after')} />
              <Field label={`Rule ${n}: until`} type="datetime-local" value={r.before} onChange={(e) => set(i, { before: e.target.value })} error={err('before')} />
            </div>
            <fieldset className="checks">
              <legend className="fieldset-label">Rule {n}: devices</legend>
              {DEVICES.map((d) => (
                <label key={d}><input type="checkbox" checked={r.device.includes(d)}
                  onChange={(e) => set(i, { device: e.target.checked ? [...r.device, d] : r.device.filter((x) => x !== d) })} /> {d}</label>
              ))}
            </fieldset>
            {errors[`rules.${i}.when`] ? <p role="alert" className="field-error">Rule {n}: {errors[`rules.${i}.when`]}</p> : null}
            <Field label={`Rule ${n}: destination URL`} type="url" value={r.url} onChange={(e) => set(i, { url: e.target.value })} placeholder="https://example.de/" error={errors[`rules.${i}.url`]} />
            <div className="inline">
              <button type="button" className="secondary" disabled={i === 0} onClick={() => move(i, -1)}>Move rule {n} up</button>
              <button type="button" className="secondary" disabled={i === rows.length - 1} onClick={() => move(i, 1)}>Move rule {n} down</button>
              <button type="button" className="link-button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>Remove rule {n}</button>
            </div>
          </div>
        );
      })}
      {listError(errors, 'rules') ? <p role="alert" className="field-error">Rules: {listError(errors, 'rules')}</p> : null}
      <button type="button" className="secondary" disabled={rows.length >= MAX_RULES} onClick={() => onChange([...rows, emptyRule()])}>Add a rule</button>
    </fieldset>
  );
}
