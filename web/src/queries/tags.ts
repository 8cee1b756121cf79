import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api.js';

export const tagKeys = {
  all: (workspaceId: string) => ['tags', workspaceId] as const,
};

export function useTags(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: tagKeys.all(workspaceId), queryFn: async () => (await api.paginate('listTags', { params: { workspaceId }, query: { limit: 100 } })).data });
}
