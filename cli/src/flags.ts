import { Flags } from '@oclif/core';
import { LINK_SORTS } from '@hop/shared/constants';
import { LINK_FIELDS, type LinkField } from '@hop/shared/link-fields';

/** `--workspace/-w`: id or slug; HOP_WORKSPACE, then the default from `hop workspaces use`. */
export const workspaceFlag = () =>
  Flags.string({ char: 'w', env: 'HOP_WORKSPACE', helpValue: '<id|slug>', description: 'workspace id or slug (default: the one chosen with `hop workspaces use`)' });

/** `--wide` of list commands: every column in full (ids, exact times), however wide the terminal. */
export const wideFlag = () => Flags.boolean({ description: 'every column in full (ids, exact times), even wider than the terminal' });

export const yesFlag = () => Flags.boolean({ char: 'y', description: 'do not ask for confirmation' });

const DURATION = /^(\d+)\s*(s|m|h|d|w)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/**
 * An ISO time, or a duration (`30m`, `12h`, `7d`, `2w`) counted from now: forwards for expiry,
 * backwards for "created after". Both end up as ISO 8601 UTC, as the API expects.
 */
export function parseTime(input: string, direction: 1 | -1, now = Date.now()): string {
  const duration = DURATION.exec(input.trim());
  if (duration) return new Date(now + direction * Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS]).toISOString();
  const ms = /^\d{4}-\d{2}-\d{2}/.test(input) ? Date.parse(input) : Number.NaN;
  if (Number.isNaN(ms)) throw new Error(`"${input}" is neither an ISO time nor a duration like 30m, 12h, 7d, 2w`);
  return new Date(ms).toISOString();
}

const timeFlag = (direction: 1 | -1) => Flags.custom<string>({ helpValue: '<time|duration>', parse: async (input) => parseTime(input, direction) });

/** The flag that sets a link field, by its kind. */
function fieldFlag(f: LinkField) {
  const description = f.help;
  if (f.kind === 'tags') return Flags.string({ char: 't', multiple: true, multipleNonGreedy: true, description });
  if (f.kind === 'time') return timeFlag(1)({ description });
  if (f.kind === 'integer') return Flags.integer({ min: 1, description });
  return Flags.string({ description });
}

/**
 * Every link field with a flag (the shared table of link fields), for `links create` and
 * `links update`; the destination is `create`'s argument and `update`'s own flag.
 */
export const linkFieldFlags = () => ({
  ...Object.fromEntries((LINK_FIELDS as readonly LinkField[]).filter((f) => f.flag && f.name !== 'url').map((f) => [f.flag!, fieldFlag(f)])),
  'password-stdin': Flags.boolean({ exclusive: ['password'], description: 'the link password: piped into stdin (the trailing newline is dropped), or asked for when stdin is a terminal' }),
}) as Record<string, ReturnType<typeof fieldFlag>> & { 'password-stdin': ReturnType<typeof Flags.boolean> };

/** `--clear-<field>` (and `--no-password`) send a cleared value on update; each excludes its setter. */
export const linkClearFlags = () => Object.fromEntries((LINK_FIELDS as readonly LinkField[]).filter((f) => f.clearFlag).map((f) => [
  f.clearFlag!,
  Flags.boolean({ exclusive: [f.flag!], description: f.clearHelp }),
])) as Record<string, ReturnType<typeof Flags.boolean>>;

/** The query flags of `links list`. */
export const linkListFlags = () => ({
  limit: Flags.integer({ min: 1, max: 100, description: 'links per page (1-100, default 20)' }),
  cursor: Flags.string({ description: 'the page after this cursor (printed on stderr after a page)' }),
  sort: Flags.string({ options: [...LINK_SORTS], description: 'sort field (default createdAt, or relevance with --search)' }),
  order: Flags.string({ options: ['asc', 'desc'], description: 'sort order (default desc)' }),
  domain: Flags.string({ description: 'only links on this domain' }),
  tag: Flags.string({ char: 't', multiple: true, multipleNonGreedy: true, description: 'only links carrying this tag; repeat: all of them' }),
  search: Flags.string({ char: 'q', description: 'full-text search over URL, slug, title and description' }),
  'created-after': timeFlag(-1)({ description: 'only links created after this ISO time or this long ago (1h, 7d)' }),
  all: Flags.boolean({ exclusive: ['cursor'], description: 'follow cursors and fetch every page' }),
});
