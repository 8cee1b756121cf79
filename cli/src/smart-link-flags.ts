import { Flags } from '@oclif/core';
import type { LinkRule, LinkVariant, RuleWhen } from '@hop/shared';
import { UsageError } from './errors.js';
import { parseTime } from './flags.js';

const RULE_KEYS = ['country', 'device', 'os', 'browser', 'language', 'after', 'before'] as const;

/**
 * `country=DE,AT device=mobile -> https://example.com/de`: conditions (`key=value[,value]`,
 * separated by spaces or `;`), an arrow, the destination. `after`/`before` take an ISO time or a
 * duration from now (`after=2d`).
 */
export function parseRule(text: string): LinkRule {
  const arrow = text.lastIndexOf('->');
  if (arrow < 0) throw new UsageError(`--rule "${text}": expected "key=value,... -> https://destination"`);
  const url = text.slice(arrow + 2).trim();
  const when: Record<string, unknown> = {};
  for (const part of text.slice(0, arrow).split(/[\s;]+/).filter(Boolean)) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim().toLowerCase() as (typeof RULE_KEYS)[number];
    const value = part.slice(eq + 1).trim();
    if (eq < 1 || !value) throw new UsageError(`--rule "${text}": "${part}" is not key=value`);
    if (!RULE_KEYS.includes(key)) throw new UsageError(`--rule "${text}": unknown condition "${key}" (use ${RULE_KEYS.join(', ')})`);
    if (key === 'after' || key === 'before') {
      try {
        when[key] = parseTime(value, 1);
      } catch (err) {
        throw new UsageError(`--rule "${text}": ${(err as Error).message}`);
      }
    } else {
      const values = value.split(',').map((v) => v.trim()).filter(Boolean);
      when[key] = values.length === 1 ? values[0] : values;
    }
  }
  if (!Object.keys(when).length) throw new UsageError(`--rule "${text}": give at least one condition before "->"`);
  return { when: when as RuleWhen, url };
}

/** `--variant https://a 50 --variant https://b 50` arrives as one list: URL, weight, URL, weight. */
export function parseVariants(tokens: string[]): LinkVariant[] {
  // `https://a=50` and "https://a 50" (quoted) are read the same way.
  const flat = tokens.flatMap((t) => t.trim().split(/\s+|=(?=\d+$)/)).filter(Boolean);
  const variants: LinkVariant[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const url = flat[i];
    const weight = Number(flat[i + 1]);
    if (flat[i + 1] === undefined || !Number.isInteger(weight)) {
      throw new UsageError(`--variant ${url}: expected a URL and its weight, e.g. --variant https://example.com/a 50`);
    }
    variants.push({ url, weight });
  }
  return variants;
}

/** The smart-link flags of `links create` and `links update`. */
export const smartLinkFlags = () => ({
  rule: Flags.string({
    multiple: true, multipleNonGreedy: true, helpValue: '<"key=v1,v2 -> url">',
    description: 'a targeting rule, e.g. "country=DE,AT device=mobile -> https://example.com/de" (keys: country, device, os, browser, language, after, before); repeat, first match wins',
  }),
  variant: Flags.string({
    multiple: true, helpValue: '<url weight>',
    description: 'an A/B variant and its weight, e.g. --variant https://example.com/a 50 --variant https://example.com/b 50 (weights sum to 100)',
  }),
  ios: Flags.string({ description: 'where iOS visitors go: an App Store page, universal link or app link (myapp://...)' }),
  android: Flags.string({ description: 'where Android visitors go: a Play Store page or app link' }),
  'preview-title': Flags.string({ description: 'title link-preview cards (Slack, X, iMessage...) show' }),
  'preview-description': Flags.string({ description: 'description link-preview cards show' }),
  'preview-image': Flags.string({ description: 'image link-preview cards show (an https URL)' }),
});

/** `--clear-rules` and the like: `null` on update. */
export const smartClearFlags = () => ({
  'clear-rules': Flags.boolean({ exclusive: ['rule'], description: 'remove every targeting rule' }),
  'clear-variants': Flags.boolean({ exclusive: ['variant'], description: 'remove the A/B split' }),
  'clear-ios': Flags.boolean({ exclusive: ['ios'], description: 'remove the iOS destination' }),
  'clear-android': Flags.boolean({ exclusive: ['android'], description: 'remove the Android destination' }),
  'clear-preview': Flags.boolean({ exclusive: ['preview-title', 'preview-description', 'preview-image'], description: 'remove the preview card' }),
});

/** The body fields the smart flags describe; a preview flag replaces the whole preview. */
export function smartBodyFromFlags(flags: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const rules = flags.rule as string[] | undefined;
  const variants = flags.variant as string[] | undefined;
  if (rules?.length) body.rules = rules.map(parseRule);
  if (variants?.length) body.variants = parseVariants(variants);
  if (flags.ios !== undefined) body.ios = flags.ios;
  if (flags.android !== undefined) body.android = flags.android;
  const preview = {
    ...(flags['preview-title'] !== undefined ? { title: flags['preview-title'] } : {}),
    ...(flags['preview-description'] !== undefined ? { description: flags['preview-description'] } : {}),
    ...(flags['preview-image'] !== undefined ? { image: flags['preview-image'] } : {}),
  };
  if (Object.keys(preview).length) body.preview = preview;
  for (const f of ['rules', 'variants', 'ios', 'android', 'preview']) if (flags[`clear-${f}`]) body[f] = null;
  return body;
}
