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

export const validationError = (path: string, message: string) =>
  new HopError('VALIDATION_ERROR', `${path}: ${message}`, { issues: [{ path, message }] });
