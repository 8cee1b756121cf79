import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateOAuthClientBody } from '@hop/shared';
import { useApi } from '../api.js';

export const oauthClientKeys = {
  all: (workspaceId: string) => ['oauth-clients', workspaceId] as const,
};

export function useOAuthClients(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: oauthClientKeys.all(workspaceId), queryFn: async () => (await api.call('listOAuthClients', { params: { workspaceId } })).data });
}

function useClientsChanged(workspaceId: string) {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: oauthClientKeys.all(workspaceId) });
}

export function useCreateOAuthClient(workspaceId: string) {
  const api = useApi();
  const changed = useClientsChanged(workspaceId);
  return useMutation({ mutationFn: async (body: CreateOAuthClientBody) => (await api.call('createOAuthClient', { params: { workspaceId }, body })).data, onSuccess: changed });
}

export function useRegenerateOAuthClientSecret(workspaceId: string) {
  const api = useApi();
  const changed = useClientsChanged(workspaceId);
  return useMutation({ mutationFn: async (clientId: string) => (await api.call('regenerateOAuthClientSecret', { params: { workspaceId, clientId } })).data, onSuccess: changed });
}

export function useDeleteOAuthClient(workspaceId: string) {
  const api = useApi();
  const changed = useClientsChanged(workspaceId);
  return useMutation({ mutationFn: (clientId: string) => api.call('deleteOAuthClient', { params: { workspaceId, clientId } }), onSuccess: changed });
}
