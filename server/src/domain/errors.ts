import type { ErrorCode } from '@hop/shared';

/**
 * A failure the caller can act on, in the contract's vocabulary. The domain throws it; the API
 * layer maps `code` to an HTTP status in one table (shared ERROR_STATUS).
 */
export class HopError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HopError';
  }
}

export const notFound = (resource: string) => new HopError('NOT_FOUND', `${resource} not found`, { resource });

/**
 * Bad input, in the one style of every validation error: `details.issues` lists `{path, message}`
 * (paths as `body.field`, `query.name` or `params.name`; bare for a body field) and the message
 * is the first of them.
 */
export function invalid(issues: { path: string; message: string }[]): HopError {
  const [first] = issues;
  return new HopError('VALIDATION_ERROR', `${first.path}: ${first.message}`, { issues });
}

export const validationError = (path: string, message: string) => invalid([{ path, message }]);
