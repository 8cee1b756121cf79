import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BULK_MAX } from '@hop/shared/link-limits';
import type { AnalyticsQuery, CreateLinkBody, Link, ListLinksQuery, UpdateLinkBody } from '@hop/shared';
import type { HopClient } from '@hop/shared/client-core';
import { useApi } from '../api.js';
import { tagKeys } from './tags.js';

export const linkKeys = {
  /** Everything cached about the workspace's links: lists, links, analytics, QR codes. */
  all: (workspaceId: string) => ['links', workspaceId] as const,
  lists: (workspaceId: string) => ['links', workspaceId, 'list'] as const,
  list: (workspaceId: string, query: ListLinksQuery) => ['links', workspaceId, 'list', query] as const,
  detail: (workspaceId: string, linkId: string) => ['links', workspaceId, 'link', linkId] as const,
  analytics: (workspaceId: string, linkId: string, query: AnalyticsQuery) => ['links', workspaceId, 'link', linkId, 'analytics', query] as const,
  qrCodes: (workspaceId: string, linkId: string) => ['links', workspaceId, 'link', linkId, 'qr'] as const,
};

/** One page of the workspace's links: asked by the list, and as the app starts on it (links-list.tsx). */
export const linksQuery = (api: Pick<HopClient, 'call'>, workspaceId: string, query: ListLinksQuery) =>
  queryOptions({ queryKey: linkKeys.list(workspaceId, query), queryFn: () => api.call('listLinks', { params: { workspaceId }, query }) });

/** One page of the workspace's links; the previous page stays on screen while the next loads. */
export function useLinks(workspaceId: string, query: ListLinksQuery) {
  return useQuery({ ...linksQuery(useApi(), workspaceId, query), placeholderData: keepPreviousData });
}

/** One link: asked by its page, and as the app starts on that page (link-detail.tsx). */
export const linkQuery = (api: Pick<HopClient, 'call'>, workspaceId: string, linkId: string) =>
  queryOptions({ queryKey: linkKeys.detail(workspaceId, linkId), queryFn: async () => (await api.call('getLink', { params: { workspaceId, linkId } })).data });

export const linkAnalyticsQuery = (api: Pick<HopClient, 'call'>, workspaceId: string, linkId: string, query: AnalyticsQuery) =>
  queryOptions({
    queryKey: linkKeys.analytics(workspaceId, linkId, query),
    queryFn: async () => (await api.call('getLinkAnalytics', { params: { workspaceId, linkId }, query })).data,
  });

export function useLink(workspaceId: string, linkId: string) {
  return useQuery(linkQuery(useApi(), workspaceId, linkId));
}

/** `notifyOnChangeProps` narrows what redraws the caller (`['status']`: only its arrival or failure). */
export function useLinkAnalytics(workspaceId: string, linkId: string, query: AnalyticsQuery, notifyOnChangeProps?: ['status']) {
  return useQuery({ ...linkAnalyticsQuery(useApi(), workspaceId, linkId, query), notifyOnChangeProps });
}

/** Lists and tags go stale when a link changes; the link itself is put in place from the answer. */
function useLinkChanged(workspaceId: string) {
  const queries = useQueryClient();
  return async (link?: Link) => {
    if (link) queries.setQueryData(linkKeys.detail(workspaceId, link.id), link);
    await queries.invalidateQueries({ queryKey: linkKeys.lists(workspaceId) });
    await queries.invalidateQueries({ queryKey: tagKeys.all(workspaceId) });
  };
}

export function useCreateLink(workspaceId: string) {
  const api = useApi();
  const changed = useLinkChanged(workspaceId);
  return useMutation({
    mutationFn: async (body: CreateLinkBody) => (await api.call('createLink', { params: { workspaceId }, body })).data,
    onSuccess: (link) => changed(link),
  });
}

export function useUpdateLink(workspaceId: string) {
  const api = useApi();
  const changed = useLinkChanged(workspaceId);
  return useMutation({
    mutationFn: async ({ linkId, body }: { linkId: string; body: UpdateLinkBody }) => (await api.call('updateLink', { params: { workspaceId, linkId }, body })).data,
    onSuccess: (link) => changed(link),
  });
}

export function useDeleteLink(workspaceId: string) {
  const api = useApi();
  const queries = useQueryClient();
  const changed = useLinkChanged(workspaceId);
  return useMutation({
    mutationFn: (linkId: string) => api.call('deleteLink', { params: { workspaceId, linkId } }),
    onSuccess: async (_, linkId) => {
      queries.removeQueries({ queryKey: linkKeys.detail(workspaceId, linkId) });
      await changed();
    },
  });
}

/** Requests the destination now and stores its health on the link. */
export function useCheckLink(workspaceId: string) {
  const api = useApi();
  const changed = useLinkChanged(workspaceId);
  return useMutation({
    mutationFn: async (linkId: string) => (await api.call('checkLink', { params: { workspaceId, linkId } })).data,
    onSuccess: (link) => changed(link),
  });
}

/** Every link of the workspace, oldest first (as an export reads back in the same order). */
export function useFetchAllLinks(workspaceId: string) {
  const api = useApi();
  return async () => (await api.paginate('listLinks', { params: { workspaceId }, query: { limit: 100, sort: 'createdAt', order: 'asc' } })).data;
}

/** Creates links through the bulk endpoint, BULK_MAX at a time; answers one result per body, in order. */
export function useImportLinks(workspaceId: string) {
  const api = useApi();
  const changed = useLinkChanged(workspaceId);
  return useMutation({
    mutationFn: async (bodies: CreateLinkBody[]) => {
      const results = [];
      for (let i = 0; i < bodies.length; i += BULK_MAX) {
        const { data } = await api.call('bulkCreateLinks', { params: { workspaceId }, body: bodies.slice(i, i + BULK_MAX) });
        results.push(...data);
      }
      return results;
    },
    onSettled: () => changed(),
  });
}
