import { APPLIED_LINK_FIELDS, CreateLinkBodySchema, LINK_FIELDS, type CreateLinkBody, type Link, type LinkFieldKind, type LinkFieldName, type UpdateLinkBody } from '@hop/shared';
import { UsageError } from './errors.js';

/** The fields a links file sets (the shared table's `applied`); a field left out means "unset" (null, or no tags). */
export const MANAGED_FIELDS = APPLIED_LINK_FIELDS;
type Field = LinkFieldName;

/** Fields of an exported link that a file may carry but apply ignores (export → apply works). */
const READ_ONLY = new Set(['id', 'shortUrl', 'clicks', 'status', 'createdAt', 'updatedAt', 'passwordProtected', 'createdBy', 'health']);

export interface DesiredLink {
  /** null: the server's default short domain. */
  domain: string | null;
  slug: string;
  values: Record<Field, unknown>;
}

export interface Change {
  field: Field;
  from: unknown;
  to: unknown;
}

export type PlanItem =
  | { action: 'create'; key: string; desired: DesiredLink }
  | { action: 'update'; key: string; desired: DesiredLink; link: Link; changes: Change[] }
  | { action: 'delete'; key: string; link: Link };

const DEFAULT = '';
export const keyOf = (domain: string | null, slug: string) => `${domain ?? DEFAULT}/${slug}`;

const KIND = Object.fromEntries(LINK_FIELDS.map((f) => [f.name, f.kind])) as Record<Field, LinkFieldKind>;

/** Comparable form of a value, by its kind: URLs as the URL parser writes them, tags as a sorted set, times as ISO. */
function normal(field: Field, v: unknown): unknown {
  const kind = KIND[field];
  if (v === undefined || v === null) return kind === 'tags' ? [] : null;
  if (kind === 'url' && typeof v === 'string') {
    try {
      return new URL(v).href;
    } catch {
      return v;
    }
  }
  if (kind === 'tags' && Array.isArray(v)) return [...new Set(v.map((t) => String(t).trim().toLowerCase()))].sort();
  if (kind === 'time' && typeof v === 'string') return new Date(v).toISOString();
  return v;
}
/** Object keys sorted: the server stores rules and previews as JSON whose key order is its own. */
const canonical = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  : x));
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** A links file (YAML or JSON: a list, or `{links: [...]}`) checked entry by entry against the API's schema. */
export function parseLinksFile(doc: unknown, source: string): DesiredLink[] {
  const list = Array.isArray(doc) ? doc : doc && typeof doc === 'object' && Array.isArray((doc as { links?: unknown }).links) ? (doc as { links: unknown[] }).links : null;
  if (!list) throw new UsageError(`${source}: expected a list of links, or an object with a "links" list`);
  const seen = new Set<string>();
  return list.map((entry, i) => {
    if (!entry || typeof entry !== 'object') throw new UsageError(`${source}: entry ${i + 1} is not an object`);
    const body = Object.fromEntries(Object.entries(entry).filter(([k]) => !READ_ONLY.has(k)));
    if (typeof body.slug !== 'string') throw new UsageError(`${source}: entry ${i + 1} needs a slug (links are matched by domain and slug)`);
    if ('password' in body || Object.keys(body).some((k) => k.startsWith('utm'))) {
      throw new UsageError(`${source}: entry ${i + 1} (${body.slug}): password and utm* fields are not managed by apply; put UTM parameters in the url`);
    }
    const parsed = CreateLinkBodySchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`${source}: entry ${i + 1} (${body.slug}): ${issue.path.join('.') || 'entry'}: ${issue.message}`);
    }
    const b = parsed.data;
    const domain = b.domain ?? null;
    const key = keyOf(domain, b.slug!);
    if (seen.has(key)) throw new UsageError(`${source}: ${b.slug} appears twice${domain ? ` on ${domain}` : ''}`);
    seen.add(key);
    const values = Object.fromEntries(MANAGED_FIELDS.map((f) => [f, normal(f, (b as Record<string, unknown>)[f])])) as Record<Field, unknown>;
    return { domain, slug: b.slug!, values };
  });
}

/**
 * Compares the file with the workspace's links. Links on the default short domain are matched by
 * the entries without a domain (or naming that domain); `customDomains` tells them apart.
 */
export function planChanges(desired: DesiredLink[], links: Link[], customDomains: Set<string>, prune: boolean): PlanItem[] {
  const defaultDomain = links.find((l) => !customDomains.has(l.domain))?.domain;
  const domainKey = (d: string | null) => (d === null || d === defaultDomain ? null : d);
  const existing = new Map(links.map((l) => [keyOf(customDomains.has(l.domain) ? l.domain : null, l.slug), l]));
  const items: PlanItem[] = [];
  const wanted = new Set<string>();
  for (const d of desired) {
    const key = keyOf(domainKey(d.domain), d.slug);
    wanted.add(key);
    const link = existing.get(key);
    if (!link) {
      items.push({ action: 'create', key, desired: d });
      continue;
    }
    const changes = MANAGED_FIELDS.flatMap((field) => {
      const from = normal(field, (link as unknown as Record<string, unknown>)[field]);
      return same(from, d.values[field]) ? [] : [{ field, from, to: d.values[field] }];
    });
    if (changes.length) items.push({ action: 'update', key, desired: d, link, changes });
  }
  if (prune) for (const [key, link] of existing) if (!wanted.has(key)) items.push({ action: 'delete', key, link });
  return items;
}

/** The body that creates a desired link (unset fields left out). */
export function createBody(d: DesiredLink): CreateLinkBody {
  const body: Record<string, unknown> = { slug: d.slug };
  if (d.domain) body.domain = d.domain;
  for (const f of MANAGED_FIELDS) {
    const v = d.values[f];
    if (v !== null && !(Array.isArray(v) && v.length === 0)) body[f] = v;
  }
  return body as CreateLinkBody;
}

/** The PATCH body of an update: only what changed, `null` (or no tags) to clear. */
export function updateBody(item: Extract<PlanItem, { action: 'update' }>): UpdateLinkBody {
  return Object.fromEntries(item.changes.map((c) => [c.field, c.to])) as UpdateLinkBody;
}

/** Where a plan item lives, as people read it: `domain/slug`, the default domain by its name when known. */
export function displayKey(item: PlanItem, defaultDomain: string | undefined): string {
  const link = item.action === 'create' ? undefined : item.link;
  if (link) return `${link.domain}/${link.slug}`;
  const d = (item as { desired: DesiredLink }).desired;
  return `${d.domain ?? defaultDomain ?? '(default domain)'}/${d.slug}`;
}

const show = (v: unknown) => (v === null ? 'null' : JSON.stringify(v));

/** Terraform-like: `+ create`, `~ update` with each field's old → new value, `- delete`, then a summary. */
export function renderPlan(items: PlanItem[], defaultDomain: string | undefined, color: boolean): string {
  const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const lines: string[] = [];
  for (const item of items) {
    const where = displayKey(item, defaultDomain);
    if (item.action === 'create') {
      lines.push(paint(32, `  + ${where}`));
      for (const f of MANAGED_FIELDS) {
        const v = item.desired.values[f];
        if (v !== null && !(Array.isArray(v) && !v.length)) lines.push(paint(32, `      ${f}: ${show(v)}`));
      }
    } else if (item.action === 'update') {
      lines.push(paint(33, `  ~ ${where}`));
      for (const c of item.changes) lines.push(paint(33, `      ${c.field}: ${show(c.from)} → ${show(c.to)}`));
    } else {
      lines.push(paint(31, `  - ${where}`));
    }
  }
  const count = (a: PlanItem['action']) => items.filter((i) => i.action === a).length;
  if (!items.length) lines.push('No changes: the workspace matches the file.');
  else lines.push('', `Plan: ${count('create')} to create, ${count('update')} to update, ${count('delete')} to delete.`);
  return lines.join('\n');
}
