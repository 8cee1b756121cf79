import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';

/** Where a sign-in comes from: kept with its session. */
export const signInContext = (req: FastifyRequest) => ({ userAgent: req.headers['user-agent'] });

export async function authRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { users } = deps.services;
  defineRoute(app, deps, 'signup', async ({ body, req }) => ({ data: await users.signup(body, signInContext(req)) }));
  defineRoute(app, deps, 'login', async ({ body, req }) => ({ data: await users.login(body, signInContext(req)) }));
  defineRoute(app, deps, 'getMe', async ({ actor }) => ({ data: await users.me(actor.userId) }));
}
