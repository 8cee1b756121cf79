import { useQuery } from '@tanstack/react-query';
import { useApi } from './api.js';

/** GET /v1/server: the mode and who may sign up, read once a page load. */
export function useServerInfo() {
  const api = useApi();
  return useQuery({ queryKey: ['server'], queryFn: async () => (await api.call('getServer', {})).data, staleTime: 5 * 60_000 });
}
