import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { Workspace } from '@hop/shared';
import { useApi } from './api.js';

export function useWorkspaces() {
  const api = useApi();
  return useQuery({ queryKey: ['workspaces'], queryFn: async () => (await api.paginate('listWorkspaces', { query: { limit: 100 } })).data });
}

/** The workspace named by the `:ws` slug of the path, as the caller sees it (with its role). */
export function useWorkspace(): { workspace: Workspace | undefined; isLoading: boolean; error: unknown } {
  const { ws } = useParams();
  const q = useWorkspaces();
  const workspace = q.data?.find((w) => w.slug === ws);
  return { workspace, isLoading: q.isLoading, error: q.error };
}
