import { HopApiError } from '@hop/shared/client';

/** Fixed exit codes, as the GitHub CLI has them: scripts branch on these. */
export const EXIT = { ok: 0, error: 1, usage: 2, partial: 3, auth: 4 } as const;

/** Wrong or missing input the user can fix on the command line (exit 2). */
export class UsageError extends Error {
  readonly code = 'USAGE';
}

/** Some items of a batch (apply, import) failed and others did not (exit 3); the results are printed. */
export class PartialSuccessError extends Error {
  readonly code = 'PARTIAL_SUCCESS';
  constructor(readonly failed: number, readonly total: number) {
    super(`${failed} of ${total} failed`);
  }
}

/** No credential configured (exit 4, like an UNAUTHORIZED answer). */
export class AuthRequiredError extends Error {
  readonly code = 'AUTH_REQUIRED';
  constructor(message = 'not logged in: run `hop login --with-token` or set HOP_API_KEY') {
    super(message);
  }
}

interface OclifError extends Error {
  code?: string;
  oclif?: { exit?: number };
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof AuthRequiredError) return EXIT.auth;
  if (err instanceof HopApiError) return err.code === 'UNAUTHORIZED' ? EXIT.auth : EXIT.error;
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof PartialSuccessError) return EXIT.partial;
  const e = err as OclifError;
  // Ctrl-C or Escape in a prompt is a cancel, not a failure.
  if (e?.name === 'ExitPromptError' || e?.name === 'AbortPromptError') return EXIT.usage;
  // oclif's parse errors carry exit 2; anything else unexpected is 1.
  return e?.oclif?.exit ?? EXIT.error;
}

/** One line for stderr: the message, what the server suggests, and the code to search for. */
export function describeError(err: unknown): string {
  if (err instanceof HopApiError) {
    const issues = Array.isArray(err.details.issues) ? err.details.issues.length : 0;
    const more = issues > 1 ? ` (and ${issues - 1} more)` : '';
    const suggestion = typeof err.details.suggestion === 'string' ? `; try "${err.details.suggestion}"` : '';
    return `${err.message}${more}${suggestion} (${err.code})`;
  }
  const e = err as OclifError;
  if (e?.name === 'ExitPromptError' || e?.name === 'AbortPromptError') return 'cancelled';
  const message = String(e?.message ?? err).split('\n').map((l) => l.trim()).filter(Boolean).join(' ');
  return e instanceof AuthRequiredError ? `${message} (UNAUTHORIZED)` : message;
}
