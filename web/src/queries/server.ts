import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api.js';

export const serverKeys = {
  info: ['server'] as const,
};

/** GET /v1/server: the mode and who may sign up, read once a page load. */
export function useServerInfo() {
  const api = useApi();
  return useQuery({ queryKey: serverKeys.info, queryFn: async () => (await api.call('getServer', {})).data, staleTime: 5 * 60_000 });
}
