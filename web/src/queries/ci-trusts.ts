import { useQuery } from '@tanstack/react-query';
import type { CreateCiTrustBody } from '@hop/shared';
import { useApi } from '../api.js';
import { useApiMutation } from './api-mutation.js';

export const ciTrustKeys = {
  all: (workspaceId: string) => ['ci-trusts', workspaceId] as const,
};

export function useCiTrusts(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: ciTrustKeys.all(workspaceId), queryFn: async () => (await api.call('listCiTrusts', { params: { workspaceId } })).data });
}

export const useCreateCiTrust = (workspaceId: string) =>
  useApiMutation(async (api, body: CreateCiTrustBody) => (await api.call('createCiTrust', { params: { workspaceId }, body })).data, [ciTrustKeys.all(workspaceId)]);

export const useDeleteCiTrust = (workspaceId: string) =>
  useApiMutation((api, trustId: string) => api.call('deleteCiTrust', { params: { workspaceId, trustId } }), [ciTrustKeys.all(workspaceId)]);
