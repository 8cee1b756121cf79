/**
 * The shape of `click_rollups`, written by the aggregation job and read by analytics: which rows a
 * run stores per link and UTC day, and how analytics turn them back into each dimension's keys.
 */

/**
 * The key of each dimension that gets no rollup row: its fallback, the value a click has when
 * nothing else is known of it (no country, no referrer: a direct visit; a user agent that names no
 * phone or tablet is a desktop's; no smart rule took it: the default target). Analytics derive each
 * as the total less the dimension's other keys (docs/adr/, "Rollups keep no row for what
 * the total implies"): for most links those rows repeated much of the total (no smart rules, no
 * geo database, direct traffic), a third of the rows a run wrote.
 */
export const DERIVED_KEYS = { country: '', device: 'desktop', browser: '', os: '', referrer: '', target: 'default' } as const;

/**
 * Device, browser and OS are stored together, one `agent` row per combination (key
 * `device<US>browser<US>os`, US the unit separator), and the day's total is the sum of a link's
 * agent rows: a click touches one row for all four instead of up to four, and the combinations a
 * link sees in a day are few, since they follow from its visitors' user agents
 * (docs/adr/, "One rollup row per user agent's combination"). Country, referrer and target
 * keep a row per key: their product would grow with a busy link's traffic.
 */
const SEPARATOR = 'chr(31)';

/** The `agent` key of the click (or pending click) `alias`; an unknown part is ''. */
export const agentKeySql = (alias: string) =>
  `concat(${alias}.device, ${SEPARATOR}, ${alias}.browser, ${SEPARATOR}, ${alias}.os)`;

/** The dimensions an agent row holds a key of, in the key's order. */
export const AGENT_DIMENSIONS = ['device', 'browser', 'os'] as const;

/** The key of the `part`th (1-based) of AGENT_DIMENSIONS within the agent key `key`. */
export const agentPartSql = (key: string, part: string) => `split_part(${key}, ${SEPARATOR}, ${part})`;

/** The dimensions whose rows count every click once: their sum is the total. */
export const TOTAL_DIMENSIONS = `('total', 'agent')`;
