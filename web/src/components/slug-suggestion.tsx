import { HopApiError } from '../api.js';

/** The free slug a SLUG_ALREADY_EXISTS answer names, if the error is one. */
export function slugSuggestion(error: unknown): string | undefined {
  if (!(error instanceof HopApiError) || error.code !== 'SLUG_ALREADY_EXISTS') return undefined;
  const s = error.details.suggestion;
  return typeof s === 'string' ? s : undefined;
}

/** "Use x-2": puts the free slug the server suggested into the slug field. */
export function SlugSuggestion({ error, onUse }: { error: unknown; onUse: (slug: string) => void }) {
  const slug = slugSuggestion(error);
  if (!slug) return null;
  return <p className="hint">“{slug}” is free. <button type="button" className="link-button" onClick={() => onUse(slug)}>Use “{slug}”</button></p>;
}
