import type { HopClient } from '@hop/shared/client';
import { UsageError } from './errors.js';

/** A domain named on the command line by id (`dom_...`) or by name; a name is looked up. */
export async function domainIdFor(api: HopClient, workspaceId: string, ref: string): Promise<string> {
  if (ref.startsWith('dom_')) return ref;
  const { data } = await api.paginate('listDomains', { params: { workspaceId }, query: { limit: 100 } });
  const name = ref.trim().toLowerCase();
  const found = data.find((d) => d.name === name);
  if (!found) throw new UsageError(`no domain "${ref}" in this workspace (see \`hop domains list\`)`);
  return found.id;
}
