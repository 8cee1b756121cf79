import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateInviteBody, Role } from '@hop/shared';
import { useApi } from '../api.js';
import { workspaceKeys } from './workspaces.js';

export const memberKeys = {
  all: (workspaceId: string) => ['members', workspaceId] as const,
  invites: (workspaceId: string) => ['members', workspaceId, 'invites'] as const,
  invite: (token: string) => ['invite', token] as const,
};

/** The invite's workspace, inviter and role, by its token (no session needed). */
export function useInvitePreview(token: string) {
  const api = useApi();
  return useQuery({ queryKey: memberKeys.invite(token), queryFn: async () => (await api.call('getInvite', { params: { token } })).data, retry: false });
}

export function useMembers(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: memberKeys.all(workspaceId), queryFn: async () => (await api.call('listMembers', { params: { workspaceId } })).data });
}

export function useInvites(workspaceId: string, enabled: boolean) {
  const api = useApi();
  return useQuery({ queryKey: memberKeys.invites(workspaceId), enabled, queryFn: async () => (await api.call('listInvites', { params: { workspaceId } })).data });
}

/** Members, invites and the caller's own workspaces (a member who leaves loses one). */
function useMembersChanged(workspaceId: string) {
  const queries = useQueryClient();
  return async () => {
    await queries.invalidateQueries({ queryKey: memberKeys.all(workspaceId) });
    await queries.invalidateQueries({ queryKey: workspaceKeys.all });
  };
}

export function useCreateInvite(workspaceId: string) {
  const api = useApi();
  const changed = useMembersChanged(workspaceId);
  return useMutation({ mutationFn: async (body: CreateInviteBody) => (await api.call('createInvite', { params: { workspaceId }, body })).data, onSuccess: changed });
}

export function useDeleteInvite(workspaceId: string) {
  const api = useApi();
  const changed = useMembersChanged(workspaceId);
  return useMutation({ mutationFn: (inviteId: string) => api.call('deleteInvite', { params: { workspaceId, inviteId } }), onSuccess: changed });
}

export function useUpdateMember(workspaceId: string) {
  const api = useApi();
  const changed = useMembersChanged(workspaceId);
  return useMutation({ mutationFn: ({ userId, role }: { userId: string; role: Role }) => api.call('updateMember', { params: { workspaceId, userId }, body: { role } }), onSettled: changed });
}

export function useDeleteMember(workspaceId: string) {
  const api = useApi();
  const changed = useMembersChanged(workspaceId);
  return useMutation({ mutationFn: (userId: string) => api.call('deleteMember', { params: { workspaceId, userId } }), onSuccess: changed });
}

/** Joins the invite's workspace; answers it. */
export function useAcceptInvite() {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (token: string) => (await api.call('acceptInvite', { params: { token } })).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: workspaceKeys.all }),
  });
}
