// The import plan: each record of a source against the workspace's links, matched by domain and
// slug. A slug already there with the same destination is skipped (a second run, or a run that
// resumes, creates nothing again); with another destination it is a conflict, changed only when
// the caller asks to overwrite. What Hop cannot hold is left out of the body and listed.
import { CreateLinkBodySchema, type CreateLinkBody, type Link } from '../links.js';
import type { ImportedLink } from './types.js';

export type ImportAction = 'create' | 'skip' | 'conflict' | 'overwrite' | 'invalid';
export type OnConflict = 'skip' | 'overwrite';

/** The tag an imported link gets when its password stayed at the source (so it can be found and protected again). */
export const PASSWORD_TAG = 'password-not-imported';

export interface ImportItem {
  action: ImportAction;
  /** Where the link was: `domain/slug` at the source. */
  source: string;
  slug: string;
  /** The Hop domain it lands on; null for the server's default short domain. */
  domain: string | null;
  /** What creates it (create) or what the PATCH sets (overwrite). */
  body?: CreateLinkBody;
  /** The workspace's link already at that domain and slug (skip, conflict, overwrite). */
  linkId?: string;
  existingUrl?: string;
  /** Why a link is a conflict or cannot be imported. */
  reason?: string;
  /** The source's custom domain is not a domain of the workspace: the link moves to the default one. */
  domainChanged: boolean;
  passwordProtected: boolean;
  notCarried: string[];
}

export interface ImportPlanOptions {
  /** The workspace's verified custom domains, lower-case. */
  customDomains: Set<string>;
  onConflict: OnConflict;
}

const MAX_TAGS = 20;
const MAX_TITLE = 256;
const MAX_DESCRIPTION = 1024;

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
};

/** The fields of a record Hop holds, each one checked on its own: a bad one is left out and listed, not the link. */
function bodyOf(r: ImportedLink, domain: string | null, notCarried: string[]): { body?: CreateLinkBody; reason?: string } {
  const tags = [...new Set(r.tags.map((t) => t.trim().toLowerCase()).filter(Boolean))];
  if (r.passwordProtected) tags.unshift(PASSWORD_TAG);
  if (tags.length > MAX_TAGS) notCarried.push(`tags beyond ${MAX_TAGS}: ${tags.slice(MAX_TAGS).join(', ')}`);
  const clip = (v: string | null, max: number, what: string) => {
    if (v && v.length > max) notCarried.push(`${what} cut to ${max} characters`);
    return v ? v.slice(0, max) : null;
  };
  const draft: Record<string, unknown> = {
    url: r.url,
    slug: r.slug,
    ...(domain ? { domain } : {}),
    title: clip(r.title, MAX_TITLE, 'title'),
    description: clip(r.description, MAX_DESCRIPTION, 'description'),
    tags: tags.slice(0, MAX_TAGS),
    expiresAt: r.expiresAt,
    importedClicks: r.clicks,
    originalCreatedAt: r.createdAt,
    ios: r.ios ?? null,
    android: r.android ?? null,
    maxClicks: r.maxClicks ?? null,
  };
  for (const [k, v] of Object.entries(draft)) if (v === null || (Array.isArray(v) && !v.length)) delete draft[k];
  for (let round = 0; round < Object.keys(draft).length; round++) {
    const parsed = CreateLinkBodySchema.safeParse(draft);
    if (parsed.success) return { body: draft as CreateLinkBody };
    const issue = parsed.error.issues[0];
    const field = String(issue.path[0] ?? '');
    if (field === 'url' || field === 'slug' || !field || !(field in draft)) return { reason: `${field || 'link'}: ${issue.message}` };
    notCarried.push(`${field} ${JSON.stringify(draft[field])}: ${issue.message}`);
    delete draft[field];
  }
  return { reason: 'not a valid link' };
}

/**
 * Plans an import. `existing` is every link of the workspace; links on the default short domain are
 * the ones whose domain is not in `customDomains`. Two records landing on one domain and slug
 * (the same back-half on two source domains the workspace lacks): the first wins, the later is a conflict.
 */
export function planImport(records: ImportedLink[], existing: Pick<Link, 'id' | 'domain' | 'slug' | 'url'>[], opts: ImportPlanOptions): ImportItem[] {
  const keyOf = (domain: string | null, slug: string) => `${domain ?? ''}/${slug}`;
  const byKey = new Map(existing.map((l) => [keyOf(opts.customDomains.has(l.domain) ? l.domain : null, l.slug), l]));
  const planned = new Map<string, string>();
  return records.map((r) => {
    const source = r.domain ? `${r.domain}/${r.slug}` : r.slug;
    const keep = r.domain !== null && opts.customDomains.has(r.domain);
    const domain = keep ? r.domain : null;
    const notCarried = [...r.notCarried];
    const base = { source, slug: r.slug, domain, domainChanged: r.domain !== null && !keep, passwordProtected: r.passwordProtected, notCarried };
    const { body, reason } = bodyOf(r, domain, notCarried);
    if (!body) return { ...base, action: 'invalid' as const, reason };
    const key = keyOf(domain, r.slug);
    const earlier = planned.get(key);
    if (earlier) return { ...base, action: 'conflict' as const, reason: `${earlier} is imported to the same slug` };
    planned.set(key, source);
    const link = byKey.get(key);
    if (!link) return { ...base, action: 'create' as const, body };
    const at = { linkId: link.id, existingUrl: link.url };
    if (sameUrl(link.url, r.url)) return { ...base, ...at, action: 'skip' as const };
    if (opts.onConflict === 'overwrite') {
      const { slug: _slug, domain: _domain, ...patch } = body;
      return { ...base, ...at, action: 'overwrite' as const, body: patch as CreateLinkBody };
    }
    return { ...base, ...at, action: 'conflict' as const, reason: `the slug leads to ${link.url}` };
  });
}

export const IMPORT_ACTIONS: readonly ImportAction[] = ['create', 'overwrite', 'skip', 'conflict', 'invalid'];

export function importCounts(items: ImportItem[]): Record<ImportAction, number> {
  const counts = Object.fromEntries(IMPORT_ACTIONS.map((a) => [a, 0])) as Record<ImportAction, number>;
  for (const i of items) counts[i.action]++;
  return counts;
}
