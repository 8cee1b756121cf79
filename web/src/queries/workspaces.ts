import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateWorkspaceBody, UpdateWorkspaceBody } from '@hop/shared';
import type { HopClient } from '@hop/shared/client-core';
import { useApi } from '../api.js';

export const workspaceKeys = {
  all: ['workspaces'] as const,
};

/** The caller's workspaces, with their role in each: asked as the app starts (page-start.ts), and by the pages. */
export const workspacesQuery = (api: Pick<HopClient, 'paginate'>) =>
  queryOptions({ queryKey: workspaceKeys.all, queryFn: async () => (await api.paginate('listWorkspaces', { query: { limit: 100 } })).data });

export function useWorkspaces() {
  return useQuery(workspacesQuery(useApi()));
}

export function useCreateWorkspace() {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateWorkspaceBody) => (await api.call('createWorkspace', { body })).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: workspaceKeys.all }),
  });
}

export function useUpdateWorkspace(workspaceId: string) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateWorkspaceBody) => (await api.call('updateWorkspace', { params: { workspaceId }, body })).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: workspaceKeys.all }),
  });
}

export function useDeleteWorkspace(workspaceId: string) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: () => api.call('deleteWorkspace', { params: { workspaceId } }),
    onSuccess: () => queries.invalidateQueries({ queryKey: workspaceKeys.all }),
  });
}
