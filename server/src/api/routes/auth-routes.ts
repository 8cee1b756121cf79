import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

export async function authRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { users } = deps.services;
  defineRoute(app, deps, 'signup', async ({ body }) => ({ data: await users.signup(body) }));
  defineRoute(app, deps, 'login', async ({ body }) => ({ data: await users.login(body) }));
  defineRoute(app, deps, 'getMe', async ({ actor }) => ({ data: await users.get(actor.userId) }));
}
