import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookBody, UpdateWebhookBody } from '@hop/shared';
import { useApi } from '../api.js';

export const webhookKeys = {
  all: (workspaceId: string) => ['webhooks', workspaceId] as const,
  detail: (workspaceId: string, webhookId: string) => ['webhooks', workspaceId, webhookId] as const,
  deliveries: (workspaceId: string, webhookId: string) => ['webhooks', workspaceId, webhookId, 'deliveries'] as const,
};

export function useWebhooks(workspaceId: string) {
  const api = useApi();
  return useQuery({ queryKey: webhookKeys.all(workspaceId), queryFn: async () => (await api.call('listWebhooks', { params: { workspaceId } })).data });
}

export function useWebhook(workspaceId: string, webhookId: string) {
  const api = useApi();
  return useQuery({ queryKey: webhookKeys.detail(workspaceId, webhookId), queryFn: async () => (await api.call('getWebhook', { params: { workspaceId, webhookId } })).data });
}

export function useDeliveries(workspaceId: string, webhookId: string) {
  const api = useApi();
  return useQuery({
    queryKey: webhookKeys.deliveries(workspaceId, webhookId),
    queryFn: async () => (await api.call('listDeliveries', { params: { workspaceId, webhookId }, query: { limit: 50 } })).data,
  });
}

/** A webhook's state, its list and its deliveries after any action on it (a test adds a delivery). */
function useWebhooksChanged(workspaceId: string) {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: webhookKeys.all(workspaceId) });
}

export function useCreateWebhook(workspaceId: string) {
  const api = useApi();
  const changed = useWebhooksChanged(workspaceId);
  return useMutation({ mutationFn: async (body: CreateWebhookBody) => (await api.call('createWebhook', { params: { workspaceId }, body })).data, onSuccess: changed });
}

/** Every action of the webhook page: one mutation each, all refreshing the webhook afterwards. */
export function useWebhookActions(workspaceId: string, webhookId: string) {
  const api = useApi();
  const changed = useWebhooksChanged(workspaceId);
  const params = { workspaceId, webhookId };
  const opts = { onSettled: changed };
  return {
    test: useMutation({ mutationFn: async () => (await api.call('testWebhook', { params, body: {} })).data, ...opts }),
    update: useMutation({ mutationFn: async (body: UpdateWebhookBody) => (await api.call('updateWebhook', { params, body })).data, ...opts }),
    enable: useMutation({ mutationFn: async () => (await api.call('enableWebhook', { params })).data, ...opts }),
    remove: useMutation({ mutationFn: () => api.call('deleteWebhook', { params }), ...opts }),
    rotate: useMutation({ mutationFn: async (graceSeconds: number) => (await api.call('rotateWebhookSecret', { params, body: { graceSeconds } })).data, ...opts }),
    retry: useMutation({ mutationFn: (deliveryId: string) => api.call('retryDelivery', { params: { ...params, deliveryId } }), ...opts }),
  };
}
