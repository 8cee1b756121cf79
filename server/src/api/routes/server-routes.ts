import type { FastifyInstance } from 'fastify';
import { SERVER_VERSION } from '../../version.js';
import { defineRoute, type ApiDeps } from '../define-route.js';

/** What a client reads before it has an account: the version, the mode and who may sign up. */
export async function serverRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { plans, signupPolicy } = deps.services;
  defineRoute(app, deps, 'getServer', async () => ({
    data: { version: SERVER_VERSION, mode: plans.mode, signup: await signupPolicy.current() },
  }));
}
