export interface UtmFields {
  utmSource?: string | null;
  utmMedium?: string | null;
  utmCampaign?: string | null;
}

const PARAMS = [
  ['utmSource', 'utm_source'],
  ['utmMedium', 'utm_medium'],
  ['utmCampaign', 'utm_campaign'],
] as const;

export const hasUtm = (f: UtmFields) => PARAMS.some(([field]) => f[field] !== undefined);

/**
 * Merges the UTM fields into the URL's query: a string replaces the parameter already there,
 * `null` removes it, `undefined` leaves it alone (docs/api.md, Links).
 */
export function applyUtm(url: string, fields: UtmFields): string {
  if (!hasUtm(fields)) return url;
  const u = new URL(url);
  for (const [field, param] of PARAMS) {
    const v = fields[field];
    if (v === null) u.searchParams.delete(param);
    else if (v !== undefined) u.searchParams.set(param, v);
  }
  return u.toString();
}
