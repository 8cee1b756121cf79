import { HopApiError } from '@hop/shared/client';
import { LINK_FIELD_FLAGS } from '@hop/shared/link-fields';

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

/**
 * Server-side field names as the flags people typed (`expiresAt` → `--expires`), for messages
 * like "body.expiresAt: must be in the future".
 */
const FIELD_FLAGS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(LINK_FIELD_FLAGS).map(([name, flag]) => [name, `--${flag}`])),
  foregroundColor: '--fg', backgroundColor: '--bg',
  logoUrl: '--logo', logoSize: '--logo-size', errorCorrection: '--ec', redirectUris: '--redirect-uri', createdAfter: '--created-after',
};

const FIELD_NAMES = new RegExp(`\\b(?:body\\.|query\\.)?(${Object.keys(FIELD_FLAGS).join('|')})\\b`, 'g');

export function asFlags(message: string): string {
  return message.replace(FIELD_NAMES, (_whole, field: string) => FIELD_FLAGS[field]);
}

/** What to do next, for the errors people meet first. */
function nextStep(err: HopApiError): string {
  if (err.code === 'NETWORK_ERROR') {
    return '; is the server running? Start one with `npm start` in the Hop directory, or point HOP_API_URL (or `hop login --api-url`) at yours';
  }
  if (err.code === 'RATE_LIMIT_EXCEEDED') {
    const at = typeof err.details.resetAt === 'string' ? ` at ${err.details.resetAt.slice(11, 19)} UTC` : '';
    return `; the window resets${at}. An operator can raise the limits (HOP_DEFAULT_PLAN for new workspaces, or the admin API: PATCH /v1/admin/workspaces/{ws})`;
  }
  return '';
}

/** One line for stderr: the message, what the server suggests, what to do next, and the code to search for. */
export function describeError(err: unknown): string {
  if (err instanceof HopApiError) {
    const issues = Array.isArray(err.details.issues) ? err.details.issues.length : 0;
    const more = issues > 1 ? ` (and ${issues - 1} more)` : '';
    const suggestion = typeof err.details.suggestion === 'string' ? `; try "${err.details.suggestion}"` : '';
    return `${asFlags(err.message)}${more}${suggestion}${nextStep(err)} (${err.code})`;
  }
  const e = err as OclifError;
  if (e?.name === 'ExitPromptError' || e?.name === 'AbortPromptError') return 'cancelled';
  const message = String(e?.message ?? err).split('\n').map((l) => l.trim()).filter(Boolean).join(' ');
  return e instanceof AuthRequiredError ? `${message} (UNAUTHORIZED)` : message;
}
