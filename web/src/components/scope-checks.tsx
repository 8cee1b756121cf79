import { SCOPE_DESCRIPTIONS } from '@hop/shared/oauth';
import { SCOPES } from '@hop/shared/scopes';

/** The scopes a credential may carry, as checkboxes named `scopes`, with their error announced beneath. */
export function ScopeChecks({ id, error }: { id: string; error?: string }) {
  const errorId = `${id}-error`;
  return (
    <>
      <fieldset className="checks" aria-describedby={error ? errorId : undefined}>
        <legend className="fieldset-label">Scopes</legend>
        {SCOPES.map((s) => (
          <label key={s} title={SCOPE_DESCRIPTIONS[s]}><input type="checkbox" name="scopes" value={s} /> {s}</label>
        ))}
      </fieldset>
      {error ? <p id={errorId} role="alert" className="field-error">Scopes: {error}</p> : null}
    </>
  );
}
