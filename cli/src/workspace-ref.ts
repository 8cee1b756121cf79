import { HopApiError, type HopClient } from '@hop/shared/client';
import type { Settings } from './config-store.js';
import { UsageError } from './errors.js';

export interface WorkspaceRef {
  id: string;
  slug?: string;
}

/** What `GET /api/v1/me` says of a credential bound to one workspace (an API key, a third-party token). */
export interface BoundIdentity {
  user: { id: string; email: string; name: string };
  workspace: { id: string; name: string; slug: string };
}

const NO_WORKSPACE = 'no workspace selected: run `hop workspaces use <slug>` (see `hop workspaces list`), or pass --workspace or set HOP_WORKSPACE';

/**
 * Credentials that may be bound to one workspace: an API key, a CI job's exchanged token, or an OAuth token that is not the
 * CLI's own stored login (a third-party token in HOP_API_KEY). Sessions and the CLI's own login
 * act in every workspace of the user.
 */
export function mayBeBound(settings: Settings): boolean {
  const { credentialKind: kind, credentialSource: source } = settings;
  return kind === 'api-key' || kind === 'ci' || (kind === 'oauth' && source === 'env');
}

/**
 * The user and workspace of a bound credential, from `GET /api/v1/me`, which needs no scope
 * (no `workspaces:read`); null for a credential that is not bound to one workspace.
 */
export async function boundIdentity(api: HopClient): Promise<BoundIdentity | null> {
  try {
    const data = await api.call('integrationMe', {});
    return { user: { id: data.id, email: data.email, name: data.name }, workspace: data.workspace };
  } catch (err) {
    // The server answers 403 FORBIDDEN to a credential that is not bound to a workspace.
    if (err instanceof HopApiError && err.code === 'FORBIDDEN') return null;
    throw err;
  }
}

const matches = (w: { id: string; slug: string }, ref: string) => w.id === ref || w.slug === ref.toLowerCase();

/**
 * The workspace a command acts in. `explicit` is `--workspace` or HOP_WORKSPACE (an id or a slug);
 * without it, the default stored by `hop login`/`hop workspaces use` (only for a stored
 * credential: a key in HOP_API_KEY never takes another login's default). A bound credential
 * selects its own workspace and refuses another; a slug is looked up among the user's workspaces.
 */
export async function resolveWorkspace(api: HopClient, settings: Settings, explicit: string | undefined): Promise<WorkspaceRef> {
  const stored = settings.credentialSource === 'config' ? settings.storedWorkspace : undefined;
  const wanted = explicit ?? stored;
  if (mayBeBound(settings)) {
    // A stored key was stored with its own workspace: no request needed to know it.
    if (wanted && wanted === stored && settings.credentialKind === 'api-key') return { id: wanted };
    const bound = await boundIdentity(api);
    if (bound) {
      if (!wanted || matches(bound.workspace, wanted)) return bound.workspace;
      const what = settings.credentialKind === 'api-key' ? 'this API key' : 'this token';
      throw new UsageError(`${what} belongs to workspace ${bound.workspace.slug} (${bound.workspace.id}) and cannot act in "${wanted}": unset HOP_WORKSPACE or use a credential of that workspace`);
    }
  }
  if (!wanted) throw new UsageError(NO_WORKSPACE);
  if (wanted.startsWith('ws_')) return { id: wanted };
  const { data } = await api.paginate('listWorkspaces', { query: { limit: 100 } });
  const found = data.find((w) => matches(w, wanted));
  if (!found) throw new Error(`no workspace "${wanted}" among yours (see \`hop workspaces list\`)`);
  return found;
}
