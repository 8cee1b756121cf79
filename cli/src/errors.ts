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

/** Body fields whose flag is not simply their kebab-case name (the link fields' from their shared table). */
const FIELD_FLAGS: Record<string, string> = {
  ...LINK_FIELD_FLAGS,
  foregroundColor: 'fg', backgroundColor: 'bg', logoUrl: 'logo', errorCorrection: 'ec',
};

const kebab = (field: string) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * A field the server names (`body.expiresAt`, `query.limit`, `scopes`) as the command line names
 * it: its flag (`--expires`, `--scope`) or argument (`<url>`) when the command has one, else the
 * path as the server gives it.
 */
export function fieldAsTyped(path: string, command: CommandSurface): string {
  const bare = path.replace(/^(body|query|params)\.?/, '');
  const field = bare.split('.')[0] ?? '';
  if (!field) return path || 'body';
  const nested = bare.includes('.');
  if (!nested && command.args.includes(field)) return `<${field}>`;
  const candidates = [FIELD_FLAGS[field], kebab(field), kebab(field).replace(/s$/, '')].filter(Boolean) as string[];
  const flag = candidates.find((c) => command.flags.includes(c));
  if (flag) return nested ? `--${flag} (${bare})` : `--${flag}`;
  return bare;
}

/** The flags and arguments of the command that failed, to name fields as they were typed. */
export interface CommandSurface {
  flags: string[];
  args: string[];
}

const NO_SURFACE: CommandSurface = { flags: [], args: [] };

/** The first issue of each field of a VALIDATION_ERROR as `<field as typed>: <message>` (an empty slug is not also told its characters). */
function issueLines(err: HopApiError, command: CommandSurface): string | undefined {
  const issues = Array.isArray(err.details.issues) ? (err.details.issues as { path?: unknown; message?: unknown }[]) : [];
  const first = new Map<string, string>();
  for (const i of issues) if (!first.has(String(i.path ?? ''))) first.set(String(i.path ?? ''), String(i.message ?? 'is not valid'));
  if (!first.size) return undefined;
  return [...first].map(([path, message]) => `${fieldAsTyped(path, command)}: ${message}`).join('; ');
}

/** What to do next, for the errors people meet first. */
function nextStep(err: HopApiError): string {
  const d = err.details;
  if (err.code === 'NETWORK_ERROR') {
    return '; is the server running? Start one with `npm start` in the Hop directory, or point HOP_API_URL (or `hop login --api-url`) at yours';
  }
  if (err.code === 'RATE_LIMIT_EXCEEDED') {
    const at = typeof d.resetAt === 'string' ? ` at ${d.resetAt.slice(11, 19)} UTC` : '';
    return `; the window resets${at}. An operator can raise the limits (HOP_DEFAULT_PLAN for new workspaces, or the admin API: PATCH /v1/admin/workspaces/{ws})`;
  }
  if (err.code === 'TIER_REQUIRED') {
    const plan = typeof d.requiredPlan === 'string' ? `the ${d.requiredPlan} plan` : 'a higher plan';
    const where = typeof d.upgradeUrl === 'string' ? ` at ${d.upgradeUrl}` : '';
    return `; it needs ${plan}: upgrade on the billing page${where} (\`hop open billing\`)`;
  }
  if (err.code === 'INSUFFICIENT_SCOPE' && typeof d.requiredScope === 'string') {
    const scope = d.requiredScope;
    return `; use a key with the ${scope} scope (\`hop keys create --name <name> --scope ${scope}\`) or log in with it (\`hop login --scope ${scope}\`)`;
  }
  return '';
}

/**
 * One line for stderr: the message (validation issues with each field named as the command line
 * names it), what to do next, and the code to search for.
 */
export function describeError(err: unknown, command: CommandSurface = NO_SURFACE): string {
  if (err instanceof HopApiError) {
    const message = (err.code === 'VALIDATION_ERROR' && issueLines(err, command)) || err.message;
    return `${message}${nextStep(err)} (${err.code})`;
  }
  const e = err as OclifError;
  if (e?.name === 'ExitPromptError' || e?.name === 'AbortPromptError') return 'cancelled';
  const message = String(e?.message ?? err).split('\n').map((l) => l.trim()).filter(Boolean).join(' ');
  return e instanceof AuthRequiredError ? `${message} (UNAUTHORIZED)` : message;
}
