import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateCiTrustBody } from '@hop/shared';
import { useApi } from '../api.js';

export const ciTrustKeys = {
  all: (workspaceId: string) => ['ci-trusts', workspaceId] as const,
};

export function useCiTrusts(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: ciTrustKeys.all(workspaceId), queryFn: async () => (await api.call('listCiTrusts', { params: { workspaceId } })).data });
}

export function useCreateCiTrust(workspaceId: string) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateCiTrustBody) => (await api.call('createCiTrust', { params: { workspaceId }, body })).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: ciTrustKeys.all(workspaceId) }),
  });
}

export function useDeleteCiTrust(workspaceId: string) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (trustId: string) => api.call('deleteCiTrust', { params: { workspaceId, trustId } }),
    onSuccess: () => queries.invalidateQueries({ queryKey: ciTrustKeys.all(workspaceId) }),
  });
}
