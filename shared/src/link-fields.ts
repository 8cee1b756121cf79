// The one table of a link's settable fields. The server's SQL and row mapping, the CLI's flags,
// bodies, error names, `links apply`, CSV import and export, and the dashboard's form read it, so a
// new field is a row here, a column in a migration and a property in CreateLinkBodySchema
// (CONTRIBUTING.md, "Add a link field").
import type { CreateLinkBody } from './links.js';

/**
 * How a field is stored and compared: `text`, `url` (text, compared as the URL parser writes it)
 * and `integer` as they are, `time` an ISO timestamp (`timestamptz`), `tags` a set of strings
 * (`text[]`), `json` an object or list (`jsonb`).
 */
export type LinkFieldKind = 'text' | 'url' | 'integer' | 'time' | 'tags' | 'json';

export interface LinkField {
  /** The name on the wire, in bodies and in the link object. */
  name: keyof CreateLinkBody;
  kind: LinkFieldKind;
  /** Its column in `links`; absent for fields that are written but not returned (password, UTM). */
  column?: string;
  /** The `links create`/`links update` flag that sets it as it is; absent when none does. */
  flag?: string;
  /** The `links update` flag that clears it, and its help; absent when it cannot be cleared. */
  clearFlag?: string;
  clearHelp?: string;
  /** What help text and the dashboard say it is. */
  help: string;
  /** A column of the CSV that `hop links import` reads and `hop links export` writes. */
  csv?: boolean;
  /** Set by `hop links apply` files, where an entry that leaves it out means "unset". */
  applied?: boolean;
}

export const LINK_FIELDS = [
  { name: 'url', kind: 'url', column: 'url', flag: 'url', help: 'destination URL', csv: true, applied: true },
  { name: 'slug', kind: 'text', column: 'slug', flag: 'slug', help: 'back-half of the short URL (1-64 of A-Z a-z 0-9 _ -); generated when absent', csv: true },
  { name: 'domain', kind: 'text', column: 'domain', flag: 'domain', help: 'a verified domain of the workspace (default: the server\'s short domain)', csv: true },
  { name: 'title', kind: 'text', column: 'title', flag: 'title', clearFlag: 'clear-title', clearHelp: 'remove the title', help: 'title (at most 256 characters)', csv: true, applied: true },
  { name: 'description', kind: 'text', column: 'description', flag: 'description', clearFlag: 'clear-description', clearHelp: 'remove the description', help: 'description (at most 1,024 characters)', csv: true, applied: true },
  { name: 'tags', kind: 'tags', column: 'tags', flag: 'tag', clearFlag: 'clear-tags', clearHelp: 'remove every tag', help: 'a tag; repeat for several', csv: true, applied: true },
  { name: 'expiresAt', kind: 'time', column: 'expires_at', flag: 'expires', clearFlag: 'clear-expires', clearHelp: 'never expire', help: 'expiry: an ISO time or a duration from now (30m, 12h, 7d, 2w)', csv: true, applied: true },
  { name: 'expiredUrl', kind: 'url', column: 'expired_url', flag: 'expired-url', clearFlag: 'clear-expired-url', clearHelp: 'remove the expired URL', help: 'where visitors go once the link expired or ran out of clicks', csv: true, applied: true },
  { name: 'maxClicks', kind: 'integer', column: 'max_clicks', flag: 'max-clicks', clearFlag: 'clear-max-clicks', clearHelp: 'remove the click limit', help: 'deactivate the link after this many human clicks', csv: true, applied: true },
  { name: 'password', kind: 'text', flag: 'password', clearFlag: 'no-password', clearHelp: 'remove password protection', help: 'protect the link with a password (Pro plan; at least 8 characters); prefer --password-stdin, as a flag stays in the shell history and the process list' },
  { name: 'utmSource', kind: 'text', flag: 'utm-source', clearFlag: 'clear-utm-source', clearHelp: 'remove utm_source from the URL', help: 'utm_source merged into the destination URL', csv: true },
  { name: 'utmMedium', kind: 'text', flag: 'utm-medium', clearFlag: 'clear-utm-medium', clearHelp: 'remove utm_medium from the URL', help: 'utm_medium merged into the destination URL', csv: true },
  { name: 'utmCampaign', kind: 'text', flag: 'utm-campaign', clearFlag: 'clear-utm-campaign', clearHelp: 'remove utm_campaign from the URL', help: 'utm_campaign merged into the destination URL', csv: true },
  { name: 'rules', kind: 'json', column: 'rules', help: 'destinations by country, device, OS, browser, language or time', applied: true },
  { name: 'variants', kind: 'json', column: 'variants', help: 'an A/B split of destinations with weights summing to 100', applied: true },
  { name: 'ios', kind: 'text', column: 'ios', help: 'where iOS visitors go (an app link or store page)', applied: true },
  { name: 'android', kind: 'text', column: 'android', help: 'where Android visitors go (an app link or store page)', applied: true },
  { name: 'preview', kind: 'json', column: 'preview', help: 'the title, description and image link-preview crawlers show', applied: true },
  { name: 'importedClicks', kind: 'integer', column: 'imported_clicks', help: 'lifetime clicks at the service the link was imported from' },
  { name: 'originalCreatedAt', kind: 'time', column: 'original_created_at', help: 'when the link was created at the service it was imported from' },
] as const satisfies readonly LinkField[];

export type LinkFieldName = (typeof LINK_FIELDS)[number]['name'];

/** The fields stored in a column of `links`, with it. */
export const STORED_LINK_FIELDS = LINK_FIELDS.filter((f): f is Extract<(typeof LINK_FIELDS)[number], { column: string }> => 'column' in f);

/** What clearing a field sends: no tags, or null. */
export const clearedValue = (f: Pick<LinkField, 'kind'>): null | never[] => (f.kind === 'tags' ? [] : null);

/** The fields `hop links apply` manages, by wire name. */
export const APPLIED_LINK_FIELDS = LINK_FIELDS.filter((f) => 'applied' in f && f.applied).map((f) => f.name);

/** The CSV columns that are link fields, in table order (`hop links export` writes the stored ones). */
export const CSV_LINK_FIELDS: readonly LinkField[] = LINK_FIELDS.filter((f) => 'csv' in f && f.csv);

/** Wire name → the CLI flag that sets it (`expiresAt` → `expires`), for every field with one. */
export const LINK_FIELD_FLAGS: Record<string, string> = Object.fromEntries(
  LINK_FIELDS.filter((f) => 'flag' in f && f.flag !== f.name).map((f) => [f.name, (f as LinkField).flag!]),
);
