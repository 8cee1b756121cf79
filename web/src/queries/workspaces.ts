import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateWorkspaceBody, UpdateWorkspaceBody } from '@hop/shared';
import { useApi } from '../api.js';

export const workspaceKeys = {
  all: ['workspaces'] as const,
};

/** The caller's workspaces, with their role in each. */
export function useWorkspaces() {
  const api = useApi();
  return useQuery({ queryKey: workspaceKeys.all, queryFn: async () => (await api.paginate('listWorkspaces', { query: { limit: 100 } })).data });
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
