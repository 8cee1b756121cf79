import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateQrCodeBody } from '@hop/shared';
import { useApi } from '../api.js';
import { linkKeys } from './links.js';

export function useQrCodes(workspaceId: string, linkId: string) {
  const api = useApi();
  return useQuery({ queryKey: linkKeys.qrCodes(workspaceId, linkId), queryFn: async () => (await api.call('listQrCodes', { params: { linkId }, query: { limit: 50 } })).data });
}

export function useCreateQrCode(workspaceId: string, linkId: string) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateQrCodeBody) => (await api.call('createQrCode', { params: { linkId }, body })).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: linkKeys.qrCodes(workspaceId, linkId) }),
  });
}

export function useDeleteQrCode(workspaceId: string, linkId: string) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (qrId: string) => api.call('deleteQrCode', { params: { qrId } }),
    onSuccess: () => queries.invalidateQueries({ queryKey: linkKeys.qrCodes(workspaceId, linkId) }),
  });
}
