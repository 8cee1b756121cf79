import { envelope, listEnvelope, ListQuerySchema } from '../envelope.js';
import {
  ChangePasswordBodySchema, ConfirmPasswordResetBodySchema, EndedSessionsSchema, PasswordChangedSchema,
  PasswordResetAcceptedSchema, PasswordResetBodySchema, PasswordResetLinkSchema, SessionParamsSchema, SessionSchema,
  UserParamsSchema,
} from '../accounts.js';
import { OAuthGrantParamsSchema, OAuthGrantSchema } from '../oauth-grants.js';
import { route } from './route-def.js';

/**
 * Passwords, sign-in sessions and connected apps (docs/api.md, Accounts). Each acts on the
 * caller's own account, with a user credential: a session, or the CLI's own login.
 */
export const sessionRoutes = {
  changePassword: route({
    method: 'POST', path: '/v1/auth/password', summary: 'Change your password (ends every other session)', tag: 'auth',
    auth: 'session', workspace: 'none', status: 200, body: ChangePasswordBodySchema, response: envelope(PasswordChangedSchema),
  }),
  requestPasswordReset: route({
    method: 'POST', path: '/v1/auth/password-reset', summary: 'Mail a password-reset link (202 whatever the e-mail)', tag: 'auth',
    auth: 'public', status: 202, body: PasswordResetBodySchema, response: envelope(PasswordResetAcceptedSchema),
  }),
  confirmPasswordReset: route({
    method: 'POST', path: '/v1/auth/password-reset/confirm', summary: 'Set a new password with a reset link\'s token (ends every session)',
    tag: 'auth', auth: 'public', status: 200, body: ConfirmPasswordResetBodySchema, response: envelope(PasswordChangedSchema),
  }),
  adminPasswordReset: route({
    method: 'POST', path: '/v1/admin/users/:userId/password-reset', summary: 'A one-time password-reset link for a user (operator only)',
    tag: 'admin', auth: 'admin', status: 201, params: UserParamsSchema, response: envelope(PasswordResetLinkSchema),
  }),
  logout: route({
    method: 'POST', path: '/v1/auth/logout', summary: 'End the session (or CLI login) this request is made with', tag: 'auth',
    auth: 'session', workspace: 'none', status: 200, response: envelope(EndedSessionsSchema),
  }),
  listSessions: route({
    method: 'GET', path: '/v1/auth/sessions', summary: 'Your signed-in sessions', tag: 'auth',
    auth: 'session', workspace: 'none', status: 200, query: ListQuerySchema, response: listEnvelope(SessionSchema),
  }),
  deleteSession: route({
    method: 'DELETE', path: '/v1/auth/sessions/:sessionId', summary: 'End one of your sessions', tag: 'auth',
    auth: 'session', workspace: 'none', status: 200, params: SessionParamsSchema, response: envelope(EndedSessionsSchema),
  }),
  deleteOtherSessions: route({
    method: 'DELETE', path: '/v1/auth/sessions', summary: 'Sign out everywhere else: end every session and CLI login but this one',
    tag: 'auth', auth: 'session', workspace: 'none', status: 200, response: envelope(EndedSessionsSchema),
  }),
  listOAuthGrants: route({
    method: 'GET', path: '/v1/oauth/grants', summary: 'Connected apps: the OAuth grants you gave', tag: 'oauth',
    auth: 'session', workspace: 'none', status: 200, query: ListQuerySchema, response: listEnvelope(OAuthGrantSchema),
  }),
  deleteOAuthGrant: route({
    method: 'DELETE', path: '/v1/oauth/grants/:grantId', summary: 'Revoke a connected app and every token it holds', tag: 'oauth',
    auth: 'session', workspace: 'none', status: 200, params: OAuthGrantParamsSchema, response: envelope(OAuthGrantSchema),
  }),
};
