import type { FastifyInstance } from 'fastify';
import { defineRoute, type ApiDeps } from '../define-route.js';
import { currentSignIn } from '../plugins/authentication.js';

/** Passwords, sessions and connected apps (docs/api.md, Accounts). */
export async function sessionRoutes(app: FastifyInstance, deps: ApiDeps) {
  const { sessions, accountPasswords, passwordResets, oauthGrants } = deps.services;
  defineRoute(app, deps, 'changePassword', async ({ actor, body }) => ({
    data: await accountPasswords.change(actor.userId, currentSignIn(actor), body),
  }));
  defineRoute(app, deps, 'requestPasswordReset', async ({ body }) => {
    passwordResets.request(body.email);
    return { data: { accepted: true as const } };
  });
  defineRoute(app, deps, 'confirmPasswordReset', async ({ body }) => ({ data: await accountPasswords.confirmReset(body) }));
  defineRoute(app, deps, 'adminPasswordReset', async ({ params }) => ({ data: await passwordResets.link(params.userId) }));
  defineRoute(app, deps, 'logout', async ({ actor }) => ({ data: { ended: await sessions.endCurrent(actor.userId, currentSignIn(actor)) } }));
  defineRoute(app, deps, 'listSessions', async ({ actor, query }) => sessions.list(actor.userId, actor.sessionId, query));
  defineRoute(app, deps, 'deleteSession', async ({ actor, params }) => ({ data: { ended: await sessions.end(actor.userId, params.sessionId) } }));
  defineRoute(app, deps, 'deleteOtherSessions', async ({ actor }) => ({ data: { ended: await sessions.endOthers(actor.userId, currentSignIn(actor)) } }));
  defineRoute(app, deps, 'listOAuthGrants', async ({ actor, query }) => oauthGrants.list(actor.userId, query));
  defineRoute(app, deps, 'deleteOAuthGrant', async ({ actor, params }) => ({ data: await oauthGrants.revoke(actor.userId, params.grantId) }));
}
