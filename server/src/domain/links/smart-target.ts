import { isAllowedAppLink, type LinkPreview, type LinkRule, type LinkVariant } from '@hop/shared';

/** A link's smart fields as stored (each null when unset). */
export interface SmartFields {
  rules: LinkRule[] | null;
  variants: LinkVariant[] | null;
  ios: string | null;
  android: string | null;
  preview: LinkPreview | null;
}

interface CompiledRule {
  index: number;
  url: string;
  /** `rule:N`, made once. */
  target: string;
  country: Set<string> | null;
  device: Set<string> | null;
  os: Set<string> | null;
  browser: Set<string> | null;
  language: Set<string> | null;
  after: number | null;
  before: number | null;
}

/**
 * A link's smart fields made ready to answer visits: value sets lower- or upper-cased once, times
 * as numbers, variant weights as cumulative bounds, and which visitor facts a choice reads (so a
 * visit works out only those).
 */
export interface SmartPlan {
  ios: string | null;
  android: string | null;
  rules: CompiledRule[];
  variants: { url: string; upTo: number; weight: number; target: string }[];
  preview: LinkPreview | null;
  needs: { country: boolean; agent: boolean; language: boolean; visitor: boolean };
}

/**
 * What is known of a visitor, normalised: `country` upper-case, `os`, `browser` and `language`
 * lower-case, each null when unknown. `visitor` is a key stable for the day (the hashed address
 * and user agent), null when there is none.
 */
export interface VisitorFacts {
  country: string | null;
  device: 'mobile' | 'desktop' | 'tablet' | null;
  os: string | null;
  browser: string | null;
  language: string | null;
  visitor: string | null;
}

export interface TargetChoice {
  url: string;
  /** `ios`, `android`, `rule:N`, `variant:N` (0-based) or `default`. */
  target: string;
  reason: string;
}

const list = (v: string | string[] | undefined) => (v === undefined ? null : Array.isArray(v) ? v : [v]);
const setOf = (v: string | string[] | undefined, norm: (s: string) => string) => {
  const l = list(v);
  return l ? new Set(l.map(norm)) : null;
};
const upper = (s: string) => s.trim().toUpperCase();
const lower = (s: string) => s.trim().toLowerCase();

const servedAppLink = (url: string | null) => (url && isAllowedAppLink(url) ? url : null);

/** Null for a plain link: the redirector sends the visitor to its url and reads no visitor facts. */
export function compileSmart(stored: SmartFields): SmartPlan | null {
  // An app link stored before the allowlist that it no longer passes is never served: its
  // visitors go where the link's other fields send them.
  const f = { ...stored, ios: servedAppLink(stored.ios), android: servedAppLink(stored.android) };
  if (!f.rules?.length && !f.variants?.length && !f.ios && !f.android && !f.preview) return null;
  const rules = (f.rules ?? []).map((r, index): CompiledRule => ({
    index,
    url: r.url,
    target: `rule:${index}`,
    country: setOf(r.when.country, upper),
    device: setOf(r.when.device, lower),
    os: setOf(r.when.os, lower),
    browser: setOf(r.when.browser, lower),
    language: setOf(r.when.language, lower),
    after: r.when.after ? Date.parse(r.when.after) : null,
    before: r.when.before ? Date.parse(r.when.before) : null,
  }));
  let upTo = 0;
  const variants = (f.variants ?? []).map((v, i) => ({ url: v.url, weight: v.weight, upTo: (upTo += v.weight), target: `variant:${i}` }));
  return {
    ios: f.ios,
    android: f.android,
    rules,
    variants,
    preview: f.preview,
    needs: {
      country: rules.some((r) => r.country),
      agent: Boolean(f.ios || f.android) || rules.some((r) => r.device || r.os || r.browser),
      language: rules.some((r) => r.language),
      visitor: variants.length > 0,
    },
  };
}

function ruleMatches(r: CompiledRule, v: VisitorFacts, now: number): boolean {
  if (r.country && !(v.country && r.country.has(v.country))) return false;
  if (r.device && !(v.device && r.device.has(v.device))) return false;
  if (r.os && !(v.os && r.os.has(v.os))) return false;
  if (r.browser && !(v.browser && r.browser.has(v.browser))) return false;
  if (r.language && !(v.language && r.language.has(v.language))) return false;
  if (r.after !== null && now < r.after) return false;
  if (r.before !== null && now >= r.before) return false;
  return true;
}

function describeRule(r: CompiledRule, v: VisitorFacts, now: number): string {
  const parts: string[] = [];
  if (r.country) parts.push(`country ${v.country}`);
  if (r.device) parts.push(`device ${v.device}`);
  if (r.os) parts.push(`os ${v.os}`);
  if (r.browser) parts.push(`browser ${v.browser}`);
  if (r.language) parts.push(`language ${v.language}`);
  if (r.after !== null || r.before !== null) parts.push(`time ${new Date(now).toISOString()}`);
  return `rules[${r.index}] matched (${parts.join(', ')})`;
}

/** 0-99 from the visitor key and the link: each link splits its visitors on its own. */
export function bucketOf(visitor: string, linkId: string): number {
  // FNV-1a: no cryptography needed here (the key is already a salted hash), and it is cheap on a visit's path.
  let h = 0x811c9dc5;
  for (let i = 0; i < visitor.length; i++) h = Math.imul(h ^ visitor.charCodeAt(i), 0x01000193);
  for (let i = 0; i < linkId.length; i++) h = Math.imul(h ^ linkId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 100;
}

/**
 * Where a visitor goes, and why: the one decision the redirector and `resolve` share. Order
 * (docs/smart-links.md, "Order"): the iOS or Android app link, then the first matching rule,
 * then the A/B variant, then the link's url. Pure: the caller supplies the facts and the time.
 * The redirector asks without `explain` (the reason is empty): only `resolve` shows it, and a
 * visit need not pay for the sentence.
 */
export function chooseTarget(link: { id: string; url: string }, plan: SmartPlan | null, v: VisitorFacts, now: number, explain = true): TargetChoice {
  if (!plan) return { url: link.url, target: 'default', reason: 'a plain link: its url' };
  if (plan.ios && v.os === 'ios') return { url: plan.ios, target: 'ios', reason: 'the visitor is on iOS: the ios link' };
  if (plan.android && v.os === 'android') return { url: plan.android, target: 'android', reason: 'the visitor is on Android: the android link' };
  for (const r of plan.rules) {
    if (ruleMatches(r, v, now)) return { url: r.url, target: r.target, reason: explain ? describeRule(r, v, now) : '' };
  }
  if (plan.variants.length) {
    const bucket = bucketOf(v.visitor ?? '', link.id);
    const i = plan.variants.findIndex((x) => bucket < x.upTo);
    const chosen = plan.variants[i];
    if (!explain) return { url: chosen.url, target: chosen.target, reason: '' };
    const split = plan.variants.map((x) => x.weight).join('/');
    return {
      url: chosen.url,
      target: chosen.target,
      reason: `${plan.rules.length ? 'no rule matched; ' : ''}A/B split ${split}: this visitor gets variants[${i}] (weight ${chosen.weight}) for the day`,
    };
  }
  return { url: link.url, target: 'default', reason: plan.rules.length ? 'no rule matched: the link\'s url' : 'the link\'s url' };
}

/** The primary subtag of the first entry of an Accept-Language value (`de-AT,de;q=0.9` → `de`). */
export function primaryLanguage(header: string | undefined): string | null {
  if (!header) return null;
  const end = header.search(/[-_;,\s]/);
  const tag = (end < 0 ? header : header.slice(0, end)).toLowerCase();
  return /^[a-z]{1,8}$/.test(tag) ? tag : null;
}
