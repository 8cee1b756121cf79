import type { Domain, Link, TagSummary, Workspace } from '@hop/shared';
import type { Column } from './render.js';

/** What `links list` shows; `--json` has every field. */
export const linkColumns: Column<Link>[] = [
  { header: 'ID', value: (l) => l.id },
  { header: 'SHORT URL', value: (l) => l.shortUrl },
  { header: 'DESTINATION', value: (l) => l.url },
  { header: 'TAGS', value: (l) => l.tags },
  { header: 'CLICKS', value: (l) => l.clicks },
  { header: 'STATUS', value: (l) => l.status },
  { header: 'CREATED', value: (l) => l.createdAt },
];

export const workspaceColumns = (defaultId?: string): Column<Workspace>[] => [
  { header: '', value: (w) => (w.id === defaultId ? '*' : '') },
  { header: 'ID', value: (w) => w.id },
  { header: 'SLUG', value: (w) => w.slug },
  { header: 'NAME', value: (w) => w.name },
  { header: 'ROLE', value: (w) => w.role },
  { header: 'PLAN', value: (w) => w.plan },
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
  { header: 'ID', value: (d) => d.id },
  { header: 'NAME', value: (d) => d.name },
  { header: 'VERIFIED', value: (d) => (d.verified ? 'yes' : 'no') },
  { header: 'TXT NAME', value: (d) => d.verification.name },
  { header: 'TXT VALUE', value: (d) => d.verification.value },
  { header: 'CREATED', value: (d) => d.createdAt },
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
