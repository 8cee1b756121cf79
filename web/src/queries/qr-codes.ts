import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateQrCodeBody } from '@hop/shared';
import type { HopClient } from '@hop/shared/client-core';
import { useApi } from '../api.js';
import { linkKeys } from './links.js';

/** A link's QR codes: asked by the link page, and as the app starts on it (link-detail.tsx). */
export const qrCodesQuery = (api: Pick<HopClient, 'call'>, workspaceId: string, linkId: string) =>
  queryOptions({ queryKey: linkKeys.qrCodes(workspaceId, linkId), queryFn: async () => (await api.call('listQrCodes', { params: { linkId }, query: { limit: 50 } })).data });

/** `notifyOnChangeProps` narrows what redraws the caller (`['status']`: only its arrival or failure). */
export function useQrCodes(workspaceId: string, linkId: string, notifyOnChangeProps?: ['status']) {
  return useQuery({ ...qrCodesQuery(useApi(), workspaceId, linkId), notifyOnChangeProps });
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
