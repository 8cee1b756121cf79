import { MAX_VARIANTS } from '@hop/shared/link-limits';
import type { FieldErrors } from '../api-errors.js';
import { Field } from '../components/field.js';
import type { VariantRow } from './body.js';
import { listError } from './rules-editor.js';

/** An A/B split: 2 to 10 destinations whose weights (percentages) sum to 100. */
export function VariantsEditor({ rows, onChange, errors }: { rows: VariantRow[]; onChange: (rows: VariantRow[]) => void; errors: FieldErrors }) {
  const set = (i: number, patch: Partial<VariantRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const sum = rows.reduce((s, r) => s + (Number(r.weight) || 0), 0);
  // A new split starts as two halves; a variant added later takes what is left of 100.
  const add = () => onChange(rows.length === 0
    ? [{ url: '', weight: '50' }, { url: '', weight: '50' }]
    : [...rows, { url: '', weight: String(Math.max(0, 100 - sum)) }]);
  return (
    <fieldset className="plain smart-list">
      <legend className="fieldset-label">A/B variants</legend>
      <p className="hint">Each visitor gets one variant for the day, picked by weight. Weights are percentages summing to 100.</p>
      {rows.map((r, i) => (
        <div key={i} className="grid-variant" role="group" aria-label={`Variant ${i + 1}`}>
          <Field label={`Variant ${i + 1}: URL`} type="url" value={r.url} onChange={(e) => set(i, { url: e.target.value })} error={errors[`variants.${i}.url`]} />
          <Field label={`Variant ${i + 1}: weight (%)`} type="number" min={0} max={100} value={r.weight} onChange={(e) => set(i, { weight: e.target.value })} error={errors[`variants.${i}.weight`]} />
          <button type="button" className="link-button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>Remove variant {i + 1}</button>
        </div>
      ))}
      {rows.length ? <p className={sum === 100 ? 'hint' : 'field-error'}>Weights sum to {sum}{sum === 100 ? '.' : ', not 100.'}</p> : null}
      {listError(errors, 'variants') ? <p role="alert" className="field-error">Variants: {listError(errors, 'variants')}</p> : null}
      <button type="button" className="secondary" disabled={rows.length >= MAX_VARIANTS} onClick={add}>{rows.length ? 'Add a variant' : 'Split between variants'}</button>
    </fieldset>
  );
}
