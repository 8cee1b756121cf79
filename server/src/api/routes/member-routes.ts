import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function memberRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { members } = deps.services;
  defineRoute(app, deps, 'listMembers', async ({ actor, query }) => members.list(actor.workspaceId, query));
  defineRoute(app, deps, 'updateMember', async ({ actor, params, body }) => ({
    data: await members.update(actor.workspaceId, params.userId, body.role),
  }));
  defineRoute(app, deps, 'deleteMember', async ({ actor, params }) => ({ data: await members.delete(actor, params.userId) }));
  defineRoute(app, deps, 'createInvite', async ({ actor, body }) => ({ data: await members.createInvite(actor, body) }));
  defineRoute(app, deps, 'listInvites', async ({ actor, query }) => members.listInvites(actor.workspaceId, query));
  defineRoute(app, deps, 'deleteInvite', async ({ actor, params }) => ({ data: await members.deleteInvite(actor.workspaceId, params.inviteId) }));
  defineRoute(app, deps, 'getInvite', async ({ params }) => ({ data: await members.getInvite(params.token) }));
  defineRoute(app, deps, 'acceptInvite', async ({ actor, params }) => ({ data: await members.acceptInvite(actor.userId, params.token) }));
}
