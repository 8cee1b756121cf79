import type { HopClient } from '@hop/shared/client';
import { UsageError } from './errors.js';

/** A member by user id (usr_...) or e-mail (ignoring case), looked up among the workspace's members. */
export async function memberIdFor(api: HopClient, workspaceId: string, ref: string): Promise<string> {
  if (ref.startsWith('usr_')) return ref;
  const { data } = await api.paginate('listMembers', { params: { workspaceId }, query: { limit: 100 } });
  const found = data.find((m) => m.email.toLowerCase() === ref.toLowerCase());
  if (!found) throw new UsageError(`no member "${ref}" in this workspace`);
  return found.userId;
}
