import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function tagRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { tags } = deps.services;
  defineRoute(app, deps, 'listTags', async ({ actor, query }) => tags.list(actor.workspaceId, query));
  defineRoute(app, deps, 'renameTag', async ({ actor, params, body }) => ({ data: await tags.rename(actor.workspaceId, params.name, body.name) }));
  defineRoute(app, deps, 'deleteTag', async ({ actor, params }) => ({ data: await tags.delete(actor.workspaceId, params.name) }));
}
