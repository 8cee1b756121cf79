import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { RouteDef } from '@hop/shared';
import { ALL_SCOPES, type Principal } from '../../domain/auth/credentials.js';
import { HopError } from '../../domain/errors.js';
import type { Services } from '../../services.js';
import { ACCESS_TOKEN_PREFIX } from '../../domain/oauth/oauth-service.js';
import { CI_TOKEN_PREFIX } from '../../domain/ci-trust/ci-trusts-service.js';
import { HOP_CLI_CLIENT_ID } from '@hop/shared';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Refusals of a Bearer credential, with the RFC 6750 error code their WWW-Authenticate challenge
 * carries (the error handler sets it): a token presented and refused is `invalid_token`.
 */
export const bearerRefusals = new WeakMap<HopError, 'invalid_token' | 'invalid_request'>();
function refuseBearer(error: 'invalid_token' | 'invalid_request', message: string): HopError {
  const err = new HopError('UNAUTHORIZED', message);
  bearerRefusals.set(err, error);
  return err;
}

/** Who is calling: an API key (`X-API-Key`), or an OAuth access token or session token (`Authorization: Bearer`). */
export async function authenticate(services: Services, req: FastifyRequest): Promise<Principal> {
  const apiKey = req.headers['x-api-key'];
  const authz = req.headers.authorization;
  if (typeof apiKey === 'string' && apiKey) {
    const p = await services.apiKeys.authenticate(apiKey.trim());
    if (!p) throw new HopError('UNAUTHORIZED', 'the API key is unknown or revoked');
    return p;
  }
  if (typeof authz === 'string' && authz) {
    const m = /^Bearer\s+(\S+)$/i.exec(authz);
    if (!m) throw refuseBearer('invalid_request', 'the Authorization header must be "Bearer <token>"');
    if (m[1].startsWith('hop_live_') || m[1].startsWith('hop_test_')) {
      throw refuseBearer('invalid_token', 'API keys go in the X-API-Key header, not Authorization');
    }
    if (m[1].startsWith(ACCESS_TOKEN_PREFIX)) {
      const p = await services.oauth.authenticate(m[1]);
      if (!p) throw refuseBearer('invalid_token', 'the access token is invalid, expired or revoked');
      return p;
    }
    if (m[1].startsWith(CI_TOKEN_PREFIX)) {
      const p = await services.ciTrusts.authenticate(m[1]);
      if (!p) throw refuseBearer('invalid_token', 'the CI token is invalid, expired, or its trust was removed');
      return p;
    }
    const session = await services.sessions.verify(m[1]);
    if (!session) throw refuseBearer('invalid_token', 'the session token is invalid, expired or signed out');
    const { userId, sessionId } = session;
    return { kind: 'session', userId, scopes: ALL_SCOPES, credentialId: `session:${userId}`, sessionId };
  }
  throw new HopError('UNAUTHORIZED', 'authentication required: send X-API-Key or Authorization: Bearer <token>');
}

/**
 * Account-level actions (creating a workspace, accepting an invite): a session, or the CLI's own
 * OAuth token (the user logged in with `hop login`); never an API key or a third-party token.
 */
export function requireUserCredential(principal: Principal) {
  if (principal.kind === 'session' || (principal.kind === 'oauth' && principal.clientId === HOP_CLI_CLIENT_ID)) return;
  throw new HopError('FORBIDDEN', 'API keys and third-party tokens belong to one workspace and cannot do this; use a session (hop login)', {
    requiredCredential: 'session',
  });
}

export function requireScope(principal: Principal, scope: RouteDef['scope']) {
  if (scope && !principal.scopes.includes(scope)) {
    throw new HopError('INSUFFICIENT_SCOPE', `this needs the ${scope} scope`, { requiredScope: scope, grantedScopes: principal.scopes });
  }
}

/** The sign-in a user credential is: its session, or the CLI login (grant) of its OAuth token. */
export const currentSignIn = (p: Principal) =>
  p.kind === 'session' ? { sessionId: p.sessionId } : p.kind === 'oauth' && p.clientId === HOP_CLI_CLIENT_ID ? { cliGrantId: p.credentialId } : {};

/**
 * The operator (docs/api.md, Accounts): the `X-Admin-Token`, or, sent without one, the user
 * credential (a session or the CLI's own login) of the operator account.
 */
export async function requireOperator(services: Services, adminToken: string | undefined, req: FastifyRequest): Promise<Principal | undefined> {
  if (req.headers['x-admin-token'] !== undefined || !(req.headers.authorization || req.headers['x-api-key'])) {
    requireAdmin(adminToken, req);
    return undefined;
  }
  const principal = await authenticate(services, req);
  requireUserCredential(principal);
  await services.operator.require(principal.userId);
  return principal;
}

/** The operator token, compared in constant time; off (404 without a credential) when none is set. */
function requireAdmin(adminToken: string | undefined, req: FastifyRequest) {
  if (!adminToken) throw new HopError('NOT_FOUND', 'X-Admin-Token is off on this server (HOP_ADMIN_TOKEN is unset): sign in as its operator (its first account) instead', { resource: 'route' });
  const given = req.headers['x-admin-token'];
  if (typeof given !== 'string' || !timingSafeEqual(digest(given), digest(adminToken))) {
    throw new HopError('UNAUTHORIZED', 'a valid X-Admin-Token, or the session of the server\'s operator (its first account), is required');
  }
}
