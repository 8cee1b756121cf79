import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateApiKeyBody } from '@hop/shared';
import { useApi } from '../api.js';

export const apiKeyKeys = {
  all: (workspaceId: string) => ['api-keys', workspaceId] as const,
};

export function useApiKeys(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: apiKeyKeys.all(workspaceId), queryFn: async () => (await api.call('listApiKeys', { params: { workspaceId } })).data });
}

export function useCreateApiKey(workspaceId: string) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateApiKeyBody) => (await api.call('createApiKey', { params: { workspaceId }, body })).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: apiKeyKeys.all(workspaceId) }),
  });
}

export function useDeleteApiKey(workspaceId: string) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => api.call('deleteApiKey', { params: { workspaceId, keyId } }),
    onSuccess: () => queries.invalidateQueries({ queryKey: apiKeyKeys.all(workspaceId) }),
  });
}
