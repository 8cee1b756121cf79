import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HopClient } from '@hop/shared/client-core';
import { useApi } from '../api.js';

export const tagKeys = {
  all: (workspaceId: string) => ['tags', workspaceId] as const,
};

/** The workspace's tags: asked by the links list's filters, and as the app starts on that page. */
export const tagsQuery = (api: Pick<HopClient, 'paginate'>, workspaceId: string) =>
  queryOptions({ queryKey: tagKeys.all(workspaceId), queryFn: async () => (await api.paginate('listTags', { params: { workspaceId }, query: { limit: 100 } })).data });

export function useTags(workspaceId: string) {
  return useQuery(tagsQuery(useApi(), workspaceId));
}
