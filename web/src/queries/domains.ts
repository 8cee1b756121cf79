import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AddDomainBody } from '@hop/shared';
import type { HopClient } from '@hop/shared/client-core';
import { useApi } from '../api.js';
import { useApiMutation } from './api-mutation.js';

export const domainKeys = {
  all: (workspaceId: string) => ['domains', workspaceId] as const,
};

/** The workspace's domains: asked by the pages and forms that name them, and as the app starts on the links list. */
export const domainsQuery = (api: Pick<HopClient, 'paginate'>, workspaceId: string) =>
  queryOptions({ queryKey: domainKeys.all(workspaceId), queryFn: async () => (await api.paginate('listDomains', { params: { workspaceId }, query: { limit: 100 } })).data });

export function useDomains(workspaceId: string) {
  return useQuery(domainsQuery(useApi(), workspaceId));
}

export const useAddDomain = (workspaceId: string) =>
  useApiMutation(async (api, body: AddDomainBody) => (await api.call('addDomain', { params: { workspaceId }, body })).data, [domainKeys.all(workspaceId)]);

export const useVerifyDomain = (workspaceId: string) =>
  useApiMutation(async (api, domainId: string) => (await api.call('verifyDomain', { params: { workspaceId, domainId } })).data, [domainKeys.all(workspaceId)]);

export const useDeleteDomain = (workspaceId: string) =>
  useApiMutation((api, domainId: string) => api.call('deleteDomain', { params: { workspaceId, domainId } }), [domainKeys.all(workspaceId)]);
