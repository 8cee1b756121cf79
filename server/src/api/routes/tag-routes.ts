import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function tagRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { tags } = deps.services;
  defineRoute(app, deps, 'listTags', async ({ params, query }) => tags.list(params.workspaceId, query));
  defineRoute(app, deps, 'renameTag', async ({ params, body }) => ({ data: await tags.rename(params.workspaceId, params.name, body.name) }));
  defineRoute(app, deps, 'deleteTag', async ({ params }) => ({ data: await tags.delete(params.workspaceId, params.name) }));
}
