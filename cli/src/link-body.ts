import type { UpdateLinkBody } from '@hop/shared';
import { clearedValue, LINK_FIELDS, type LinkField } from '@hop/shared/link-fields';

const FIELDS: readonly LinkField[] = LINK_FIELDS;

/**
 * The link body the given flags describe (the shared table of link fields names each field's
 * flag and clear flag); unset flags are left out, so the server keeps its defaults.
 */
export function linkBodyFromFlags(flags: Record<string, unknown>): UpdateLinkBody {
  const body: Record<string, unknown> = {};
  for (const f of FIELDS) {
    if (f.flag && flags[f.flag] !== undefined) body[f.name] = flags[f.flag];
    if (f.clearFlag && flags[f.clearFlag]) body[f.name] = clearedValue(f);
  }
  return body as UpdateLinkBody;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const BARE_HOST = /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+(:\d+)?([/?#]\S*)?$/u;

/**
 * A destination typed without a scheme (`example.com/launch`) gets `https://`, as a browser's
 * address bar does; anything else is left for the server to judge.
 */
export function withScheme<B extends { url?: string | null }>(body: B, say: (message: string) => void): B {
  const { url } = body;
  if (!url || SCHEME.test(url) || !BARE_HOST.test(url)) return body;
  say(`No scheme given: using https://${url}`);
  return { ...body, url: `https://${url}` };
}
