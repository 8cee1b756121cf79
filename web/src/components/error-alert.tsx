import { Link } from 'react-router';
import { HopApiError } from '../api.js';
import { errorText } from '../api-errors.js';

/** An API error as the API words it; a 403 says what is missing, never a blank page. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof HopApiError) {
    if (error.code === 'TIER_REQUIRED') {
      const url = String(error.details.upgradeUrl ?? '');
      const path = url ? new URL(url).pathname : '';
      const base = new URL(document.baseURI).pathname.replace(/\/$/, '');
      return (
        <div role="alert" className="alert">
          {error.message}{' '}
          {path.startsWith(base) ? <Link to={path.slice(base.length)}>See plans and billing</Link> : null}
        </div>
      );
    }
    const extra = error.code === 'FORBIDDEN' && error.details.requiredRole ? ` (needs the ${String(error.details.requiredRole)} role)` : '';
    return <div role="alert" className="alert">{errorText(error)}{extra}</div>;
  }
  return <div role="alert" className="alert">{error instanceof Error ? error.message : String(error)}</div>;
}
