import { useParams } from 'react-router';
import type { Workspace } from '@hop/shared';
import { useWorkspaces } from './queries/workspaces.js';

/** The workspace named by the `:ws` slug of the path, as the caller sees it (with its role). */
export function useWorkspace(): { workspace: Workspace | undefined; isLoading: boolean; error: unknown } {
  const { ws } = useParams();
  const q = useWorkspaces();
  const workspace = q.data?.find((w) => w.slug === ws);
  return { workspace, isLoading: q.isLoading, error: q.error };
}
