// The link form's values as create and update bodies. Plain fields are read from the form's
// inputs; the smart ones (rules, variants, preview) are lists and objects kept in state.
import { LINK_FIELDS } from '@hop/shared/link-fields';
import { DEVICES, SMART_FIELDS } from '@hop/shared/link-limits';
import type { Link, LinkField, LinkPreview } from '@hop/shared';

type Device = (typeof DEVICES)[number];
type LinkRuleOut = NonNullable<Link['rules']>[number];
type LinkVariantOut = NonNullable<Link['variants']>[number];

/** `2026-11-25T10:00:00.000Z` as a datetime-local value in the browser's zone, and back. */
export const toLocal = (iso: string | null | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
export const fromLocal = (v: string) => (v ? new Date(v).toISOString() : null);

const text = (f: FormData, k: string) => String(f.get(k) ?? '').trim();

/** The fields the inputs edit: every field of the table but the lists and objects below. */
export const INPUT_FIELDS = (LINK_FIELDS as readonly LinkField[]).filter((f) => f.kind !== 'json');

/** Fields a save may set to null: those with a clear flag, and the app links. */
const clearable = (f: LinkField) => Boolean(f.clearFlag) || (SMART_FIELDS as readonly string[]).includes(f.name);

/** A form input's value as the body wants it, by the field's kind; undefined when empty. */
function readField(f: FormData, field: LinkField): unknown {
  if (field.name === 'password') return String(f.get('password') ?? '') || undefined;
  const v = text(f, field.name);
  if (!v) return undefined;
  if (field.kind === 'tags') return v.split(',').map((t) => t.trim()).filter(Boolean);
  if (field.kind === 'integer') return Number(v);
  if (field.kind === 'time') return fromLocal(v);
  return v;
}

// --- Rules: one row of inputs per rule; a list of values is typed separated by commas. ---

export interface RuleRow {
  country: string; device: Device[]; os: string; browser: string; language: string;
  after: string; before: string; url: string;
}
export const emptyRule = (): RuleRow => ({ country: '', device: [], os: '', browser: '', language: '', after: '', before: '', url: '' });

const joined = (v: string | string[] | undefined) => (v === undefined ? '' : [v].flat().join(', '));
const listOf = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
/** One value as itself, several as a list, none left out: as a person would write the rule. */
const oneOrMany = <T>(xs: T[]): T | T[] | undefined => (xs.length === 0 ? undefined : xs.length === 1 ? xs[0] : xs);

export function ruleRow(rule: LinkRuleOut): RuleRow {
  const w = rule.when;
  return {
    country: joined(w.country), device: [w.device ?? []].flat() as Device[], os: joined(w.os), browser: joined(w.browser),
    language: joined(w.language), after: toLocal(w.after), before: toLocal(w.before), url: rule.url,
  };
}

export function ruleOf(row: RuleRow) {
  const when = {
    country: oneOrMany(listOf(row.country)), device: oneOrMany(row.device), os: oneOrMany(listOf(row.os)),
    browser: oneOrMany(listOf(row.browser)), language: oneOrMany(listOf(row.language)),
    after: fromLocal(row.after) ?? undefined, before: fromLocal(row.before) ?? undefined,
  };
  return { when: Object.fromEntries(Object.entries(when).filter(([, v]) => v !== undefined)), url: row.url.trim() };
}

// --- Variants: a destination and its weight (a percentage). ---

export interface VariantRow { url: string; weight: string }
export const variantRow = (v: LinkVariantOut): VariantRow => ({ url: v.url, weight: String(v.weight) });
export const variantOf = (row: VariantRow) => ({ url: row.url.trim(), weight: row.weight.trim() === '' ? NaN : Number(row.weight) });

// --- Preview: what link-preview crawlers show. ---

export interface PreviewRow { title: string; description: string; image: string }
export const previewRow = (p: LinkPreview | null | undefined): PreviewRow => ({ title: p?.title ?? '', description: p?.description ?? '', image: p?.image ?? '' });
export function previewOf(row: PreviewRow): LinkPreview | null {
  const p = { title: row.title.trim() || undefined, description: row.description.trim() || undefined, image: row.image.trim() || undefined };
  return p.title || p.description || p.image ? Object.fromEntries(Object.entries(p).filter(([, v]) => v)) : null;
}

/** The state of the smart fields, and which of them the user changed. */
export interface SmartState {
  rules: RuleRow[];
  variants: VariantRow[];
  preview: PreviewRow;
  /** Only a field the user touched is sent: an untouched one stays exactly as stored. */
  touched: Set<'rules' | 'variants' | 'preview'>;
}

export const smartState = (link?: Link): SmartState => ({
  rules: (link?.rules ?? []).map(ruleRow),
  variants: (link?.variants ?? []).map(variantRow),
  preview: previewRow(link?.preview),
  touched: new Set(),
});

/** The smart fields' wire values; an empty list or preview is null (unset). */
function smartValues(s: SmartState) {
  return {
    rules: s.rules.length ? s.rules.map(ruleOf) : null,
    variants: s.variants.length ? s.variants.map(variantOf) : null,
    preview: previewOf(s.preview),
  };
}

/** The form's values as a create body (empty fields left out). */
export function createBody(f: FormData, smart: SmartState): Record<string, unknown> {
  const inputs = INPUT_FIELDS.map((field) => [field.name, readField(f, field)] as const);
  const values = Object.entries(smartValues(smart));
  return Object.fromEntries([...inputs, ...values].filter(([, v]) => v !== undefined && v !== null));
}

/**
 * Only what changed, with `null` clearing a field that was emptied: a field the form leaves
 * alone, or one it does not show, is not in the body, so the server keeps it as it is.
 */
export function updateBody(f: FormData, smart: SmartState, link: Link): Record<string, unknown> {
  const now = createBody(f, { ...smart, rules: [], variants: [], preview: previewRow(null) });
  const out: Record<string, unknown> = {};
  const before = link as unknown as Record<string, unknown>;
  for (const field of INPUT_FIELDS) {
    const k = field.name;
    if (k === 'domain' || k === 'tags' || k === 'password') continue;
    const was = before[k] ?? undefined;
    const is = now[k];
    if (field.kind === 'time' && was && is && new Date(String(was)).getTime() === new Date(String(is)).getTime()) continue;
    if (is === undefined && was !== undefined && clearable(field)) out[k] = null;
    else if (is !== undefined && is !== was) out[k] = is;
  }
  if (text(f, 'domain') && text(f, 'domain') !== link.domain) out.domain = text(f, 'domain');
  const tags = (now.tags as string[] | undefined) ?? [];
  if (tags.join(',').toLowerCase() !== link.tags.join(',')) out.tags = tags;
  if (now.password) out.password = now.password;
  else if (f.get('removePassword')) out.password = null;
  const values = smartValues(smart);
  for (const k of smart.touched) {
    if (JSON.stringify(values[k]) !== JSON.stringify(link[k])) out[k] = values[k];
  }
  return out;
}
