import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';
import { errorBody } from '../plugins/error-handler.js';

export async function linkRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { links } = deps.services;
  defineRoute(app, deps, 'createLink', async ({ actor, body }) => ({ data: await links.create(actor, body) }));
  defineRoute(app, deps, 'bulkCreateLinks', async ({ actor, body }) => ({
    data: (await links.bulkCreate(actor, body)).map((r) => (r.success ? r : { ...r, error: errorBody(r.error.code, r.error.message, r.error.details) })),
  }));
  defineRoute(app, deps, 'readImportSource', async ({ body }) => ({ data: { links: await deps.services.importReader.read(body) } }));
  defineRoute(app, deps, 'listLinks', async ({ actor, query }) => links.list(actor.workspaceId, query));
  defineRoute(app, deps, 'getLink', async ({ actor, params }) => ({ data: await links.get(actor.workspaceId, params.linkId) }));
  defineRoute(app, deps, 'updateLink', async ({ actor, params, body }) => ({ data: (await links.update(actor, params.linkId, body)).link }));
  // The workspace is the link's (declared `workspace: 'link'`): the same access as if the path named it.
  defineRoute(app, deps, 'updateLinkById', async ({ actor, params, body }) => ({ data: (await links.update(actor, params.linkId, body)).link }));
  defineRoute(app, deps, 'resolveLink', async ({ actor, params, query }) => ({
    data: await deps.services.linkResolver.resolve(actor.workspaceId, params.linkId, query),
  }));
  defineRoute(app, deps, 'checkLink', async ({ actor, params }) => {
    await deps.services.linkHealth.checkLink(actor.workspaceId, params.linkId);
    return { data: await links.get(actor.workspaceId, params.linkId) };
  });
  defineRoute(app, deps, 'deleteLink', async ({ actor, params }) => ({ data: await links.delete(actor, params.linkId) }));
}
