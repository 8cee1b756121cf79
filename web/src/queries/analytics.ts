import { useQuery } from '@tanstack/react-query';
import type { WorkspaceAnalyticsQuery } from '@hop/shared';
import { useApi } from '../api.js';

export const analyticsKeys = {
  workspace: (workspaceId: string, query: WorkspaceAnalyticsQuery) => ['analytics', workspaceId, query] as const,
};

export function useWorkspaceAnalytics(workspaceId: string, query: WorkspaceAnalyticsQuery) {
  const api = useApi();
  return useQuery({ queryKey: analyticsKeys.workspace(workspaceId, query), queryFn: async () => (await api.call('getWorkspaceAnalytics', { params: { workspaceId }, query })).data });
}
