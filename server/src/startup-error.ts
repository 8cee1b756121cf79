/**
 * A start that cannot go on for a reason the operator can fix (a port in use, a data directory
 * held by another server): `bin/hop-server` prints its message as one line, without a stack trace.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
