// The limits and names of a link's fields that callers need without its schemas: plain values, no
// zod, so the dashboard's links and link pages can read them without building every link schema
// (links.ts builds them when it loads, and re-exports these).

export const DEVICES = ['mobile', 'desktop', 'tablet'] as const;
export const MAX_RULES = 20;
export const MAX_VARIANTS = 10;
/** The fields of a smart link: rules, A/B variants, app links and the social preview. */
export const SMART_FIELDS = ['rules', 'variants', 'ios', 'android', 'preview'] as const;
/** The most links one bulk request creates. */
export const BULK_MAX = 100;
