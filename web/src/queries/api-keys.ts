import { useQuery } from '@tanstack/react-query';
import type { CreateApiKeyBody } from '@hop/shared';
import { useApi } from '../api.js';
import { useApiMutation } from './api-mutation.js';

export const apiKeyKeys = {
  all: (workspaceId: string) => ['api-keys', workspaceId] as const,
};

export function useApiKeys(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: apiKeyKeys.all(workspaceId), queryFn: async () => (await api.call('listApiKeys', { params: { workspaceId } })).data });
}

export const useCreateApiKey = (workspaceId: string) =>
  useApiMutation(async (api, body: CreateApiKeyBody) => (await api.call('createApiKey', { params: { workspaceId }, body })).data, [apiKeyKeys.all(workspaceId)]);

export const useDeleteApiKey = (workspaceId: string) =>
  useApiMutation((api, keyId: string) => api.call('deleteApiKey', { params: { workspaceId, keyId } }), [apiKeyKeys.all(workspaceId)]);
