import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddDomainBody } from '@hop/shared';
import { useApi } from '../api.js';

export const domainKeys = {
  all: (workspaceId: string) => ['domains', workspaceId] as const,
};

export function useDomains(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: domainKeys.all(workspaceId), queryFn: async () => (await api.paginate('listDomains', { params: { workspaceId }, query: { limit: 100 } })).data });
}

function useDomainsChanged(workspaceId: string) {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: domainKeys.all(workspaceId) });
}

export function useAddDomain(workspaceId: string) {
  const api = useApi();
  const changed = useDomainsChanged(workspaceId);
  return useMutation({ mutationFn: async (body: AddDomainBody) => (await api.call('addDomain', { params: { workspaceId }, body })).data, onSuccess: changed });
}

export function useVerifyDomain(workspaceId: string) {
  const api = useApi();
  const changed = useDomainsChanged(workspaceId);
  return useMutation({ mutationFn: async (domainId: string) => (await api.call('verifyDomain', { params: { workspaceId, domainId } })).data, onSuccess: changed });
}

export function useDeleteDomain(workspaceId: string) {
  const api = useApi();
  const changed = useDomainsChanged(workspaceId);
  return useMutation({ mutationFn: (domainId: string) => api.call('deleteDomain', { params: { workspaceId, domainId } }), onSuccess: changed });
}
