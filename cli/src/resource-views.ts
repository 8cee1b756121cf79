import type { Domain, Link, TagSummary, Workspace } from '@hop/shared';
import { dateColumn, type Column } from './render.js';

/**
 * What `links list` shows: on a terminal the slug and short URL in full, then the destination
 * (cut first), clicks and a relative date (dropped in turn when the width runs out); `--wide`
 * adds the id, tags and status. Piped rows keep id, short URL, destination, tags, clicks, status,
 * created. `--json` has every field.
 */
export const linkColumns: Column<Link>[] = [
  { header: 'ID', value: (l) => l.id, wide: true },
  { header: 'SLUG', value: (l) => l.slug, terminalOnly: true },
  { header: 'SHORT URL', value: (l) => l.shortUrl },
  { header: 'DESTINATION', value: (l) => l.url, cutTo: 16, drop: 3 },
  { header: 'TAGS', value: (l) => l.tags, wide: true },
  { header: 'CLICKS', value: (l) => l.clicks, drop: 5 },
  { header: 'STATUS', value: (l) => l.status, wide: true },
  dateColumn('CREATED', (l) => l.createdAt),
];

export const workspaceColumns = (defaultId?: string): Column<Workspace>[] => [
  { header: '', value: (w) => (w.id === defaultId ? '*' : '') },
  { header: 'ID', value: (w) => w.id, wide: true },
  { header: 'SLUG', value: (w) => w.slug },
  { header: 'NAME', value: (w) => w.name, cutTo: 12, drop: 3 },
  { header: 'ROLE', value: (w) => w.role, drop: 5 },
  { header: 'PLAN', value: (w) => w.plan, drop: 7 },
];

/** A link as `key value` lines, in the order a reader wants them. */
export const linkRecord = (l: Link) => ({
  id: l.id,
  shortUrl: l.shortUrl,
  url: l.url,
  title: l.title,
  description: l.description,
  tags: l.tags,
  status: l.status,
  clicks: l.clicks,
  maxClicks: l.maxClicks,
  expiresAt: l.expiresAt,
  expiredUrl: l.expiredUrl,
  passwordProtected: l.passwordProtected,
  createdAt: l.createdAt,
  updatedAt: l.updatedAt,
});

/** What `domains list` shows: enough to create the TXT record from the table. */
export const domainColumns: Column<Domain>[] = [
  { header: 'ID', value: (d) => d.id, wide: true },
  { header: 'NAME', value: (d) => d.name },
  { header: 'VERIFIED', value: (d) => (d.verified ? 'yes' : 'no') },
  { header: 'TXT NAME', value: (d) => d.verification.name, cutTo: 20 },
  { header: 'TXT VALUE', value: (d) => d.verification.value, cutTo: 20 },
  dateColumn('CREATED', (d) => d.createdAt),
];

export const domainRecord = (d: Domain) => ({
  id: d.id,
  name: d.name,
  verified: d.verified,
  txtName: d.verification.name,
  txtValue: d.verification.value,
  verifiedAt: d.verifiedAt,
  createdAt: d.createdAt,
});

export const tagColumns: Column<TagSummary>[] = [
  { header: 'TAG', value: (t) => t.name },
  { header: 'LINKS', value: (t) => t.linkCount },
];
