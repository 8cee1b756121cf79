import { useQuery } from '@tanstack/react-query';
import type { CreateWebhookBody, UpdateWebhookBody } from '@hop/shared';
import { useApi } from '../api.js';
import { useApiMutation } from './api-mutation.js';

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

export const useCreateWebhook = (workspaceId: string) =>
  useApiMutation(async (api, body: CreateWebhookBody) => (await api.call('createWebhook', { params: { workspaceId }, body })).data, [webhookKeys.all(workspaceId)]);

/**
 * Every action of the webhook page: one mutation each, all refreshing the webhook, its list and
 * its deliveries afterwards (a test adds a delivery), whether or not the action was refused.
 */
export function useWebhookActions(workspaceId: string, webhookId: string) {
  const params = { workspaceId, webhookId };
  const changed = [webhookKeys.all(workspaceId)];
  return {
    test: useApiMutation(async (api) => (await api.call('testWebhook', { params, body: {} })).data, changed, 'settled'),
    update: useApiMutation(async (api, body: UpdateWebhookBody) => (await api.call('updateWebhook', { params, body })).data, changed, 'settled'),
    enable: useApiMutation(async (api) => (await api.call('enableWebhook', { params })).data, changed, 'settled'),
    remove: useApiMutation((api) => api.call('deleteWebhook', { params }), changed, 'settled'),
    rotate: useApiMutation(async (api, graceSeconds: number) => (await api.call('rotateWebhookSecret', { params, body: { graceSeconds } })).data, changed, 'settled'),
    retry: useApiMutation((api, deliveryId: string) => api.call('retryDelivery', { params: { ...params, deliveryId } }), changed, 'settled'),
  };
}
