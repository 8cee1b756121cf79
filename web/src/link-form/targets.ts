import type { Link } from '@hop/shared';

/**
 * A click's `target` as the link page names it: `rule:0` is the first rule, with its URL;
 * `variant:1` the second variant. Keys of rules or variants since removed keep their number.
 */
export function targetLabel(link: Link): (key: string) => string {
  return (key) => {
    if (key === 'default') return `Destination URL (${link.url})`;
    if (key === 'ios') return `iOS link${link.ios ? ` (${link.ios})` : ''}`;
    if (key === 'android') return `Android link${link.android ? ` (${link.android})` : ''}`;
    const m = /^(rule|variant):(\d+)$/.exec(key);
    if (!m) return key;
    const i = Number(m[2]);
    const to = m[1] === 'rule' ? link.rules?.[i]?.url : link.variants?.[i]?.url;
    return `${m[1] === 'rule' ? 'Rule' : 'Variant'} ${i + 1}${to ? ` (${to})` : ''}`;
  };
}
