import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { DEVICE_CODE_GRANT_TYPE, ID_TOKEN_TYPE, SCOPES, TOKEN_EXCHANGE_GRANT_TYPE } from '@hop/shared';
import { OidcRefusal } from '../../domain/ci-trust/oidc-refusal.js';
import { OAuthError } from '../../domain/oauth/oauth-errors.js';
import { retryAfterSeconds } from '../../domain/rate-limits/rate-limiter.js';
import type { RegisteredClient } from '../../domain/oauth/oauth-clients-service.js';
import type { AuthorizationRequest } from '../../domain/oauth/oauth-service.js';
import { defineRoute, type ApiDeps } from '../define-route.js';
import { consentPage, noWorkspacePage, oauthErrorPage } from './oauth-pages.js';
import { fields, oauthBrowserSession, sendPage, type Form } from './oauth-session.js';
import { deviceRoutes, type ConsentExtras } from './oauth-device-routes.js';
import { browserPage, oauthErrorHandler, protocolEndpoint, sendOAuthError } from './oauth-error-replies.js';

const hidden = { schema: { hide: true } } as const;

/** `redirectUri` with `params` added to its query (keeping what it had), per RFC 6749 4.1.2. */
function withParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

/**
 * The authorization server (docs/api.md, Access; RFC 6749, 7636, 8252, 8414, 7009): metadata, the HTML
 * authorize endpoint (login, then consent), the token and revocation endpoints, and the client
 * registrations of the route table. Form bodies and cookies are parsed only inside this scope.
 */
export async function oauthRoutes(app: FastifyInstance, deps: ApiDeps & { baseUrl: string; dashboardUrl: string }) {
  const { oauth, deviceCodes, oauthClients, users, workspaces } = deps.services;
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  app.setErrorHandler(oauthErrorHandler);
  const browser = oauthBrowserSession(deps.services, deps.baseUrl.startsWith('https://'), deps.dashboardUrl);

  // The client registrations live in the route table: envelope, scope keys:manage, role admin.
  defineRoute(app, deps, 'listOAuthClients', async ({ actor, query }) => oauthClients.list(actor.workspaceId, query));
  defineRoute(app, deps, 'createOAuthClient', async ({ actor, body }) => ({ data: await oauthClients.create(actor, body) }));
  defineRoute(app, deps, 'regenerateOAuthClientSecret', async ({ actor, params }) => ({
    data: await oauthClients.regenerateSecret(actor.workspaceId, params.clientId),
  }));
  defineRoute(app, deps, 'deleteOAuthClient', async ({ actor, params }) => ({
    data: await oauthClients.delete(actor.workspaceId, params.clientId),
  }));

  app.get('/.well-known/oauth-authorization-server', hidden, async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    const authMethods = ['client_secret_basic', 'client_secret_post', 'none'];
    return {
      issuer: deps.baseUrl,
      authorization_endpoint: `${deps.baseUrl}/v1/oauth/authorize`,
      token_endpoint: `${deps.baseUrl}/v1/oauth/token`,
      revocation_endpoint: `${deps.baseUrl}/v1/oauth/revoke`,
      device_authorization_endpoint: `${deps.baseUrl}/v1/oauth/device/code`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT_TYPE, TOKEN_EXCHANGE_GRANT_TYPE],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: authMethods,
      revocation_endpoint_auth_methods_supported: authMethods,
      scopes_supported: [...SCOPES],
      // RFC 9207: every answer of the authorization endpoint, errors included, names its issuer.
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${deps.baseUrl}/docs`,
    };
  });

  /** The consent page; a third party needs a workspace to be bound to, the CLI's own login does not. */
  async function showConsent(reply: FastifyReply, client: RegisteredClient, scopes: AuthorizationRequest['scopes'], userId: string, csrf: string, more: ConsentExtras = {}) {
    const [user, list] = await Promise.all([users.get(userId), workspaces.listForUser(userId)]);
    if (list.length === 0 && !client.firstParty) return sendPage(reply, 200, noWorkspacePage(user.email));
    const redirect = more.redirectUri ? new URL(more.redirectUri) : null;
    return sendPage(reply, more.error ? 400 : 200, consentPage({
      client, userEmail: user.email, workspaces: list, scopes, csrf, error: more.error,
      // A private-use scheme (com.example.app:/callback) has no host: the scheme names the app.
      redirectHost: redirect ? redirect.host || redirect.protocol : undefined, userCode: more.userCode,
    }));
  }

  /** Validates the query; answers an error page or redirect itself, or hands back the request. */
  async function checkRequest(req: FastifyRequest, reply: FastifyReply) {
    const check = await oauth.checkAuthorizeRequest(req.query as Record<string, string | undefined>);
    // The reply is answered, never awaited: a Fastify reply is a thenable that settles only
    // once the response is out, and the handler must stop here rather than run on after it.
    if (check.kind === 'page') {
      sendPage(reply, 400, oauthErrorPage(check.message));
      return null;
    }
    if (check.kind === 'redirect') {
      reply.header('cache-control', 'no-store').redirect(withParams(check.redirectUri, {
        error: check.error.error, error_description: check.error.description, state: check.state, iss: deps.baseUrl,
      }), 302);
      return null;
    }
    return check;
  }

  app.get('/v1/oauth/authorize', browserPage, async (req, reply) => {
    const check = await checkRequest(req, reply);
    if (!check) return reply;
    const csrf = browser.csrfToken(req, reply);
    const userId = await browser.user(req);
    if (!userId) return browser.accountPage(req, reply, check.client.name, csrf);
    return showConsent(reply, check.client, check.request.scopes, userId, csrf, { redirectUri: check.request.redirectUri });
  });

  app.post('/v1/oauth/authorize', browserPage, async (req, reply) => {
    const check = await checkRequest(req, reply);
    if (!check) return reply;
    const { client, request } = check;
    const form = fields(req.body);
    if (!browser.csrfMatches(req, form)) {
      return sendPage(reply, 403, oauthErrorPage('This form expired or did not come from Hop. Go back and reload the page.'));
    }
    const csrf = form.csrf!;
    if (await browser.handleAccountForm(req, reply, form, client.name)) return reply;

    const userId = await browser.user(req);
    if (!userId) return browser.accountPage(req, reply, client.name, csrf);
    if (form.decision === 'deny') {
      return reply.header('cache-control', 'no-store').redirect(withParams(request.redirectUri, {
        error: 'access_denied', error_description: 'the user denied the request', state: request.state, iss: deps.baseUrl,
      }), 303);
    }
    const again = (error: string) => showConsent(reply, client, request.scopes, userId, csrf, { error, redirectUri: request.redirectUri });
    if (form.decision !== 'approve') return again('Choose Approve or Deny.');
    const code = form.workspace || client.firstParty ? await oauth.approve(request, userId, form.workspace || null) : null;
    if (!code) return again('Choose one of your workspaces.');
    return reply.header('cache-control', 'no-store').redirect(withParams(request.redirectUri, {
      code, state: request.state, iss: deps.baseUrl,
    }), 303);
  });

  /** RFC 6749 2.3.1: HTTP Basic (form-encoded id and secret) or the body; never both. */
  async function clientOf(req: FastifyRequest, form: Form): Promise<{ client: RegisteredClient; basic: boolean }> {
    const header = req.headers.authorization;
    const basic = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header) : null;
    if (basic) {
      if (form.client_secret) throw new OAuthError('invalid_request', 'send the client secret once: in Authorization or in the body');
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      let id: string;
      let secret: string;
      try {
        id = decodeURIComponent(decoded.slice(0, colon < 0 ? undefined : colon).replace(/\+/g, ' '));
        secret = colon < 0 ? '' : decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
      } catch {
        throw new OAuthError('invalid_client', 'the Authorization header is malformed');
      }
      if (form.client_id && form.client_id !== id) throw new OAuthError('invalid_request', 'client_id differs from the Authorization header');
      return { client: await oauth.authenticateClient({ clientId: id, clientSecret: secret, method: 'basic' }), basic: true };
    }
    const method = form.client_secret ? 'post' : 'none';
    return { client: await oauth.authenticateClient({ clientId: form.client_id, clientSecret: form.client_secret, method }), basic: false };
  }

  /**
   * RFC 8693 with an OIDC ID token (docs/ci.md): no client authentication, the ID token is the
   * proof. Every refusal is 401 `invalid_grant` naming the failed check.
   */
  async function exchangeIdToken(req: FastifyRequest, form: Form, reply: FastifyReply) {
    const allowed = await deps.services.rateLimits.consumeCiTokenExchange(req.ip);
    if (!allowed.allowed) {
      const seconds = retryAfterSeconds(allowed.status?.resetAt);
      throw new OAuthError('invalid_request', `too many token exchanges from this address; try again in ${seconds} s`, seconds);
    }
    if (!form.subject_token) throw new OAuthError('invalid_request', 'subject_token is required: the CI job\'s OIDC ID token');
    if (form.subject_token_type !== ID_TOKEN_TYPE) throw new OAuthError('invalid_request', `subject_token_type must be ${ID_TOKEN_TYPE}`);
    try {
      const tokens = await deps.services.ciTrusts.exchange({ subjectToken: form.subject_token, workspace: form.workspace || undefined });
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
    } catch (err) {
      if (err instanceof OidcRefusal) return sendOAuthError(reply, new OAuthError('invalid_grant', err.message), false, 401);
      throw err;
    }
  }

  app.post('/v1/oauth/token', protocolEndpoint, async (req, reply) => {
    const form = fields(req.body);
    let basic = false;
    try {
      if (form.grant_type === TOKEN_EXCHANGE_GRANT_TYPE) return await exchangeIdToken(req, form, reply);
      const auth = await clientOf(req, form);
      basic = auth.basic;
      let tokens;
      if (form.grant_type === 'authorization_code') {
        tokens = await oauth.exchangeCode(auth.client, { code: form.code, redirectUri: form.redirect_uri, codeVerifier: form.code_verifier });
      } else if (form.grant_type === 'refresh_token') {
        tokens = await oauth.refresh(auth.client, { refreshToken: form.refresh_token, scope: form.scope });
      } else if (form.grant_type === DEVICE_CODE_GRANT_TYPE) {
        tokens = await deviceCodes.exchange(auth.client, form.device_code);
      } else if (!form.grant_type) {
        throw new OAuthError('invalid_request', 'grant_type is required');
      } else {
        throw new OAuthError('unsupported_grant_type', `grant_type must be authorization_code, refresh_token, ${DEVICE_CODE_GRANT_TYPE} or ${TOKEN_EXCHANGE_GRANT_TYPE}`);
      }
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err, basic || /^Basic\s/i.test(String(req.headers.authorization ?? '')));
      throw err;
    }
  });

  deviceRoutes(app, deps, { browser, clientOf, sendOAuthError, showConsent });

  app.post('/v1/oauth/revoke', protocolEndpoint, async (req, reply) => {
    const form = fields(req.body);
    try {
      const { client } = await clientOf(req, form);
      await oauth.revoke(client, form.token);
      return reply.code(200).header('cache-control', 'no-store').send();
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err, /^Basic\s/i.test(String(req.headers.authorization ?? '')));
      throw err;
    }
  });
}
