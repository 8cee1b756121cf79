import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api.js';

export const usageKeys = {
  all: (workspaceId: string) => ['usage', workspaceId] as const,
};

/** This hour's and minute's usage, refreshed every 30 s while the page is open. */
export function useUsage(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: usageKeys.all(workspaceId), queryFn: async () => (await api.call('getUsage', { params: { workspaceId } })).data, refetchInterval: 30_000 });
}
