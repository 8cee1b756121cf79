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
