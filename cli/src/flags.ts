import { Flags } from '@oclif/core';
import { LINK_SORTS } from '@hop/shared/constants';

/** `--workspace/-w`: id or slug; HOP_WORKSPACE, then the default from `hop workspaces use`. */
export const workspaceFlag = () =>
  Flags.string({ char: 'w', env: 'HOP_WORKSPACE', helpValue: '<id|slug>', description: 'workspace id or slug (default: the one chosen with `hop workspaces use`)' });

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

/** Every settable link field, shared by `links create` and `links update`. */
export const linkFieldFlags = () => ({
  slug: Flags.string({ description: 'back-half of the short URL (1-64 of A-Z a-z 0-9 _ -); generated when absent' }),
  domain: Flags.string({ description: 'a verified domain of the workspace (default: the server\'s short domain)' }),
  title: Flags.string({ description: 'title (at most 256 characters)' }),
  description: Flags.string({ description: 'description (at most 1,024 characters)' }),
  tag: Flags.string({ char: 't', multiple: true, multipleNonGreedy: true, description: 'a tag; repeat for several' }),
  expires: timeFlag(1)({ description: 'expiry: an ISO time or a duration from now (30m, 12h, 7d, 2w)' }),
  'expired-url': Flags.string({ description: 'where visitors go once the link expired or ran out of clicks' }),
  'max-clicks': Flags.integer({ min: 1, description: 'deactivate the link after this many human clicks' }),
  password: Flags.string({ description: 'protect the link with a password (Pro plan; at least 8 characters); prefer --password-stdin, as a flag stays in the shell history and the process list' }),
  'password-stdin': Flags.boolean({ exclusive: ['password'], description: 'the link password: piped into stdin (the trailing newline is dropped), or asked for when stdin is a terminal' }),
  'utm-source': Flags.string({ description: 'utm_source merged into the destination URL' }),
  'utm-medium': Flags.string({ description: 'utm_medium merged into the destination URL' }),
  'utm-campaign': Flags.string({ description: 'utm_campaign merged into the destination URL' }),
});

/** `--clear-<field>` (and `--no-password`) send `null` on update; each excludes its setter. */
export const linkClearFlags = () => ({
  'clear-title': Flags.boolean({ exclusive: ['title'], description: 'remove the title' }),
  'clear-description': Flags.boolean({ exclusive: ['description'], description: 'remove the description' }),
  'clear-tags': Flags.boolean({ exclusive: ['tag'], description: 'remove every tag' }),
  'clear-expires': Flags.boolean({ exclusive: ['expires'], description: 'never expire' }),
  'clear-expired-url': Flags.boolean({ exclusive: ['expired-url'], description: 'remove the expired URL' }),
  'clear-max-clicks': Flags.boolean({ exclusive: ['max-clicks'], description: 'remove the click limit' }),
  'no-password': Flags.boolean({ exclusive: ['password'], description: 'remove password protection' }),
  'clear-utm-source': Flags.boolean({ exclusive: ['utm-source'], description: 'remove utm_source from the URL' }),
  'clear-utm-medium': Flags.boolean({ exclusive: ['utm-medium'], description: 'remove utm_medium from the URL' }),
  'clear-utm-campaign': Flags.boolean({ exclusive: ['utm-campaign'], description: 'remove utm_campaign from the URL' }),
});

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
