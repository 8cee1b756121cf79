import type { FastifyInstance } from 'fastify';
import { routes } from '@hop/shared';
import { defineRoute, type ApiDeps } from '../define-route.js';
import { requireMembership } from '../plugins/authentication.js';
import { notFound } from '../../domain/errors.js';

export async function linkRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { links } = deps.services;
  defineRoute(app, deps, 'createLink', async ({ principal, membership, body }) => ({
    data: await links.create({ ...membership, userId: principal.userId }, body),
  }));
  defineRoute(app, deps, 'bulkCreateLinks', async ({ principal, membership, body }) => ({
    data: await links.bulkCreate({ ...membership, userId: principal.userId }, body),
  }));
  defineRoute(app, deps, 'listLinks', async ({ membership, query }) => links.list(membership.workspaceId, query));
  defineRoute(app, deps, 'getLink', async ({ membership, params }) => ({ data: await links.get(membership.workspaceId, params.linkId) }));
  defineRoute(app, deps, 'updateLink', async ({ principal, membership, params, body }) => ({
    data: (await links.update({ ...membership, userId: principal.userId }, params.linkId, body)).link,
  }));
  // The workspace is implied by the link; access is checked as if the path had named it.
  defineRoute(app, deps, 'updateLinkById', async ({ principal, params, body }) => {
    const workspaceId = await links.workspaceOf(params.linkId);
    if (!workspaceId) throw notFound('link');
    const membership = await requireMembership(deps.services, principal, workspaceId, routes.updateLinkById.role).catch((err) => {
      throw err.code === 'NOT_FOUND' ? notFound('link') : err;
    });
    return { data: (await links.update({ ...membership, userId: principal.userId }, params.linkId, body)).link };
  });
  defineRoute(app, deps, 'resolveLink', async ({ membership, params, query }) => ({
    data: await deps.services.linkResolver.resolve(membership.workspaceId, params.linkId, query),
  }));
  defineRoute(app, deps, 'checkLink', async ({ membership, params }) => {
    await deps.services.linkHealth.checkLink(membership.workspaceId, params.linkId);
    return { data: await links.get(membership.workspaceId, params.linkId) };
  });
  defineRoute(app, deps, 'deleteLink', async ({ principal, membership, params }) => ({
    data: await links.delete({ ...membership, userId: principal.userId }, params.linkId),
  }));
}
