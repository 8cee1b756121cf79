import { useQuery } from '@tanstack/react-query';
import type { CreateInviteBody, Role } from '@hop/shared';
import { useApi } from '../api.js';
import { useApiMutation } from './api-mutation.js';
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
const membersChanged = (workspaceId: string) => [memberKeys.all(workspaceId), workspaceKeys.all];

export const useCreateInvite = (workspaceId: string) =>
  useApiMutation(async (api, body: CreateInviteBody) => (await api.call('createInvite', { params: { workspaceId }, body })).data, membersChanged(workspaceId));

export const useDeleteInvite = (workspaceId: string) =>
  useApiMutation((api, inviteId: string) => api.call('deleteInvite', { params: { workspaceId, inviteId } }), membersChanged(workspaceId));

export const useUpdateMember = (workspaceId: string) =>
  useApiMutation((api, { userId, role }: { userId: string; role: Role }) => api.call('updateMember', { params: { workspaceId, userId }, body: { role } }), membersChanged(workspaceId), 'settled');

export const useDeleteMember = (workspaceId: string) =>
  useApiMutation((api, userId: string) => api.call('deleteMember', { params: { workspaceId, userId } }), membersChanged(workspaceId));

/** Joins the invite's workspace; answers it. */
export const useAcceptInvite = () =>
  useApiMutation(async (api, token: string) => (await api.call('acceptInvite', { params: { token } })).data, [workspaceKeys.all]);
