import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@hop/shared';
import { useApi } from '../api.js';

export const accountKeys = {
  me: ['me'] as const,
  sessions: ['sessions'] as const,
  grants: ['oauth-grants'] as const,
};

export function useMe() {
  const api = useApi();
  return useQuery({ queryKey: accountKeys.me, queryFn: async () => (await api.call('getMe', {})).data });
}

export function useSessions() {
  const api = useApi();
  return useQuery({ queryKey: accountKeys.sessions, queryFn: async () => (await api.paginate('listSessions', { query: { limit: 100 } })).data });
}

/** Ends one session (`id`) or every other one (no id); answers how many ended. */
export function useEndSessions() {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (sessionId?: string) => (sessionId
      ? await api.call('deleteSession', { params: { sessionId } })
      : await api.call('deleteOtherSessions', {})).data.ended,
    onSuccess: () => queries.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export function useChangePassword() {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: ChangePasswordBody) => (await api.call('changePassword', { body })).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export function useOAuthGrants() {
  const api = useApi();
  return useQuery({ queryKey: accountKeys.grants, queryFn: async () => (await api.paginate('listOAuthGrants', { query: { limit: 100 } })).data });
}

export function useRevokeOAuthGrant() {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (grantId: string) => api.call('deleteOAuthGrant', { params: { grantId } }),
    onSuccess: () => queries.invalidateQueries({ queryKey: accountKeys.grants }),
  });
}
