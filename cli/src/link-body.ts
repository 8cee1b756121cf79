import type { CreateLinkBody, UpdateLinkBody } from '@hop/shared';

/** Flag name → body field, for the fields a flag sets as it is. */
const FIELD_OF_FLAG = {
  url: 'url',
  slug: 'slug',
  domain: 'domain',
  title: 'title',
  description: 'description',
  tag: 'tags',
  expires: 'expiresAt',
  'expired-url': 'expiredUrl',
  'max-clicks': 'maxClicks',
  password: 'password',
  'utm-source': 'utmSource',
  'utm-medium': 'utmMedium',
  'utm-campaign': 'utmCampaign',
} as const satisfies Record<string, keyof CreateLinkBody>;

/** Clear flag → body field and the value that clears it (tags clear to [], the rest to null). */
const CLEARED_BY_FLAG = {
  'clear-title': ['title', null],
  'clear-description': ['description', null],
  'clear-tags': ['tags', []],
  'clear-expires': ['expiresAt', null],
  'clear-expired-url': ['expiredUrl', null],
  'clear-max-clicks': ['maxClicks', null],
  'no-password': ['password', null],
  'clear-utm-source': ['utmSource', null],
  'clear-utm-medium': ['utmMedium', null],
  'clear-utm-campaign': ['utmCampaign', null],
} as const satisfies Record<string, readonly [keyof UpdateLinkBody, null | never[]]>;

/** The link body the given flags describe; unset flags are left out, so the server keeps its defaults. */
export function linkBodyFromFlags(flags: Record<string, unknown>): UpdateLinkBody {
  const body: Record<string, unknown> = {};
  for (const [flag, field] of Object.entries(FIELD_OF_FLAG)) if (flags[flag] !== undefined) body[field] = flags[flag];
  for (const [flag, [field, cleared]] of Object.entries(CLEARED_BY_FLAG)) if (flags[flag]) body[field] = cleared;
  return body as UpdateLinkBody;
}
