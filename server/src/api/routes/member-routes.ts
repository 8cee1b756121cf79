import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function memberRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { members } = deps.services;
  defineRoute(app, deps, 'updateMember', async ({ params, body }) => ({
    data: await members.changeRole(params.workspaceId, params.userId, body.role),
  }));
  defineRoute(app, deps, 'removeMember', async ({ principal, membership, params }) => ({
    data: await members.remove({ ...membership, userId: principal.userId }, params.userId),
  }));
  defineRoute(app, deps, 'createInvite', async ({ principal, membership, body }) => ({
    data: await members.invite({ ...membership, userId: principal.userId }, body),
  }));
  defineRoute(app, deps, 'listInvites', async ({ params, query }) => members.listInvites(params.workspaceId, query));
  defineRoute(app, deps, 'revokeInvite', async ({ params }) => ({ data: await members.revokeInvite(params.workspaceId, params.inviteId) }));
  defineRoute(app, deps, 'acceptInvite', async ({ principal, params }) => ({ data: await members.accept(principal.userId, params.token) }));
}
