import { useQuery } from '@tanstack/react-query';
import type { CreateOAuthClientBody } from '@hop/shared';
import { useApi } from '../api.js';
import { useApiMutation } from './api-mutation.js';

export const oauthClientKeys = {
  all: (workspaceId: string) => ['oauth-clients', workspaceId] as const,
};

export function useOAuthClients(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: oauthClientKeys.all(workspaceId), queryFn: async () => (await api.call('listOAuthClients', { params: { workspaceId } })).data });
}

export const useCreateOAuthClient = (workspaceId: string) =>
  useApiMutation(async (api, body: CreateOAuthClientBody) => (await api.call('createOAuthClient', { params: { workspaceId }, body })).data, [oauthClientKeys.all(workspaceId)]);

export const useRegenerateOAuthClientSecret = (workspaceId: string) =>
  useApiMutation(async (api, clientId: string) => (await api.call('regenerateOAuthClientSecret', { params: { workspaceId, clientId } })).data, [oauthClientKeys.all(workspaceId)]);

export const useDeleteOAuthClient = (workspaceId: string) =>
  useApiMutation((api, clientId: string) => api.call('deleteOAuthClient', { params: { workspaceId, clientId } }), [oauthClientKeys.all(workspaceId)]);
