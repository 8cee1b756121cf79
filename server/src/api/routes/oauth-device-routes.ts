import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '@hop/shared';
import type { RegisteredClient } from '../../domain/oauth/oauth-clients-service.js';
import { OAuthError } from '../../domain/oauth/oauth-errors.js';
import { formatUserCode } from '../../domain/oauth/device-codes.js';
import { retryAfterSeconds } from '../../domain/rate-limits/rate-limiter.js';
import type { ApiDeps } from '../define-route.js';
import { deviceCodePage, deviceDonePage, oauthErrorPage } from './oauth-pages.js';
import { fields, sendPage, type Form, type OAuthBrowserSession } from './oauth-session.js';
import { browserPage, protocolEndpoint } from './oauth-error-replies.js';

/** Seconds until a refused window resets. */

/** What the device routes share with the rest of the authorization server (oauth-routes.ts). */
export interface DeviceRouteHelpers {
  browser: OAuthBrowserSession;
  clientOf(req: FastifyRequest, form: Form): Promise<{ client: RegisteredClient; basic: boolean }>;
  sendOAuthError(reply: FastifyReply, err: OAuthError, basic: boolean): unknown;
  showConsent(reply: FastifyReply, client: RegisteredClient, scopes: Scope[], userId: string, csrf: string, more?: ConsentExtras): Promise<unknown>;
}

/** What the consent page shows beyond the client and scopes: a failure, where the answer goes, the device's code. */
export interface ConsentExtras {
  error?: string;
  redirectUri?: string;
  userCode?: string;
}

/**
 * RFC 8628 (docs/cli.md): `POST /v1/oauth/device/code` hands a device its codes; the user opens
 * `/v1/oauth/device` on any browser, signs in (or signs up), types the code (prefilled from
 * `verification_uri_complete`) and approves; the token endpoint then answers the device's poll.
 */
export function deviceRoutes(app: FastifyInstance, deps: ApiDeps & { baseUrl: string }, h: DeviceRouteHelpers) {
  const { deviceCodes, oauthClients, rateLimits } = deps.services;
  const { browser } = h;
  const verificationUri = `${deps.baseUrl}/v1/oauth/device`;

  app.post('/v1/oauth/device/code', protocolEndpoint, async (req, reply) => {
    const form = fields(req.body);
    let basic = false;
    try {
      const auth = await h.clientOf(req, form);
      basic = auth.basic;
      const allowed = await rateLimits.consumeDeviceCodeStart(req.ip, auth.client.id);
      if (!allowed.allowed) {
        throw new OAuthError('slow_down', 'too many device authorizations from this address for this client; try again later', retryAfterSeconds(allowed.status?.resetAt));
      }
      const started = await deviceCodes.start(auth.client, form.scope);
      return reply.header('cache-control', 'no-store').send({
        device_code: started.deviceCode,
        user_code: started.userCode,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${started.userCode}`,
        expires_in: started.expiresIn,
        interval: started.interval,
      });
    } catch (err) {
      if (err instanceof OAuthError) return h.sendOAuthError(reply, err, basic || /^Basic\s/i.test(String(req.headers.authorization ?? '')));
      throw err;
    }
  });

  /**
   * The code the user typed, if it names a pending request: with its client. A code that names
   * none is a wrong guess, counted per address and per user; once either has used up its guesses,
   * the answer is 429 whatever the code (the page has been sent then, and this answers null).
   */
  async function pendingRequest(req: FastifyRequest, reply: FastifyReply, userId: string, csrf: string, userCode: string | undefined) {
    const allowed = await rateLimits.deviceCodeGuessAllowed(req.ip, userId);
    if (!allowed.allowed) {
      const seconds = retryAfterSeconds(allowed.status?.resetAt);
      reply.header('retry-after', String(seconds));
      sendPage(reply, 429, deviceCodePage({ csrf, userCode, error: `Too many wrong codes. Try again in ${Math.ceil(seconds / 60)} minute${seconds > 60 ? 's' : ''}.` }));
      return null;
    }
    const pending = await deviceCodes.pending(userCode);
    const client = pending ? await oauthClients.find(pending.clientId) : null;
    if (pending && client) return { pending, client };
    await rateLimits.countWrongDeviceCode(req.ip, userId);
    sendPage(reply, 400, deviceCodePage({ csrf, userCode, error: 'This code is unknown, used or expired.' }));
    return null;
  }

  app.get('/v1/oauth/device', browserPage, async (req, reply) => {
    const csrf = browser.csrfToken(req, reply);
    const userId = await browser.user(req);
    if (!userId) return browser.accountPage(req, reply, 'your device', csrf);
    const userCode = (req.query as Record<string, string | undefined>).user_code;
    if (!userCode) return sendPage(reply, 200, deviceCodePage({ csrf }));
    const found = await pendingRequest(req, reply, userId, csrf, userCode);
    if (!found) return reply;
    return h.showConsent(reply, found.client, found.pending.scopes, userId, csrf, { userCode: formatUserCode(found.pending.userCode) });
  });

  app.post('/v1/oauth/device', browserPage, async (req, reply) => {
    const form = fields(req.body);
    if (!browser.csrfMatches(req, form)) {
      return sendPage(reply, 403, oauthErrorPage('This form expired or did not come from Hop. Go back and reload the page.'));
    }
    const csrf = form.csrf!;
    if (await browser.handleAccountForm(req, reply, form, 'your device')) return reply;
    const userId = await browser.user(req);
    if (!userId) return browser.accountPage(req, reply, 'your device', csrf);
    const found = await pendingRequest(req, reply, userId, csrf, form.user_code);
    if (!found) return reply;
    const { pending, client } = found;
    const again = (error: string) => h.showConsent(reply, client, pending.scopes, userId, csrf, { error, userCode: formatUserCode(pending.userCode) });
    if (form.action === 'code') return again('');
    if (form.decision === 'deny') {
      await deviceCodes.deny(pending.userCode);
      return sendPage(reply, 200, deviceDonePage(false));
    }
    if (form.decision !== 'approve') return again('Choose Approve or Deny.');
    if (!form.workspace && !client.firstParty) return again('Choose one of your workspaces.');
    const ok = await deviceCodes.approve(pending.userCode, userId, form.workspace || null);
    if (!ok) return again('Choose one of your workspaces.');
    return sendPage(reply, 200, deviceDonePage(true));
  });
}
