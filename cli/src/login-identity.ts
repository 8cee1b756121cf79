import type { OAuthTokenResponse, User, Workspace } from '@hop/shared';
import { HopApiError, type HopClient } from '@hop/shared/client';
import { credentialKind } from './config-store.js';
import { boundIdentity } from './workspace-ref.js';

export interface LoginWorkspace {
  id: string;
  slug: string;
  name: string;
  /** The credential belongs to this one workspace (an API key, a third-party token). */
  bound: boolean;
}

/**
 * Who a new credential is, and the workspace to store as the default. A key or a third-party
 * token names its own workspace (`GET /api/v1/me`, no scope needed). A session or the CLI's own
 * login acts in all the user's workspaces: the one chosen at consent, else the stored default if
 * still theirs, else their only one. `count`: how many workspaces the user has (unknown without
 * `workspaces:read`), so that a user with none is told how to create one.
 */
export async function identify(api: HopClient, credential: string, tokens: OAuthTokenResponse | undefined, stored: string | undefined)
  : Promise<{ user: Pick<User, 'id' | 'email' | 'name'>; workspace: LoginWorkspace | null; count?: number }> {
  const kind = credentialKind(credential);
  if (kind === 'api-key' || (kind === 'oauth' && !tokens)) {
    const bound = await boundIdentity(api);
    if (bound) return { user: bound.user, workspace: { ...bound.workspace, bound: true }, count: 1 };
  }
  const { data: user } = await api.call('getMe', {});
  const listed = await api.paginate('listWorkspaces', { query: { limit: 100 } }).then((r) => r.data, (err: unknown) => {
    if (err instanceof HopApiError && err.statusCode === 403) return undefined; // no workspaces:read: choose later
    throw err;
  });
  if (!listed) return { user, workspace: null };
  const pick = (id: string | null | undefined) => listed.find((w: Workspace) => w.id === id);
  const chosen = pick(tokens?.workspace_id) ?? pick(stored) ?? (listed.length === 1 ? listed[0] : undefined);
  const count = listed.length;
  if (!chosen) return { user, workspace: null, count };
  return { user, workspace: { id: chosen.id, slug: chosen.slug, name: chosen.name, bound: false }, count };
}
