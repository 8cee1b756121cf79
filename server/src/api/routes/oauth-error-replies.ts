import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS } from '@hop/shared';
import { HopError } from '../../domain/errors.js';
import { OAuthError } from '../../domain/oauth/oauth-errors.js';
import { handleError, keepConnectionForSmallBody } from '../plugins/error-handler.js';
import { oauthErrorPage } from './oauth-pages.js';
import { sendPage } from './oauth-session.js';

/** How a route of the authorization server answers a failure: RFC 6749 JSON, or an HTML page. */
export type OAuthReplies = 'json' | 'page';
export const protocolEndpoint = { schema: { hide: true }, config: { oauthReplies: 'json' as OAuthReplies } };
export const browserPage = { schema: { hide: true }, config: { oauthReplies: 'page' as OAuthReplies } };

/** RFC 6749 5.2: `{error, error_description}`, 400 (401 for client authentication), never cached. */
export function sendOAuthError(reply: FastifyReply, err: OAuthError, basic: boolean, status: number = err.status) {
  // RFC 6749 5.2: a failed Basic authentication names the scheme the client should use.
  if (status === 401 && basic) reply.header('www-authenticate', 'Basic realm="hop"');
  if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
  return reply.code(status).header('cache-control', 'no-store').header('pragma', 'no-cache')
    .send({ error: err.error, error_description: err.description });
}

// Fastify's own failures before the handler runs, in words a client can act on.
const BODY_FAILURES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'the body is larger than this endpoint takes (16 KiB)',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'the body must be application/x-www-form-urlencoded',
  FST_ERR_CTP_INVALID_JSON_BODY: 'the body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'the body is empty',
};

/**
 * The error handler of the authorization server's scope. Its protocol endpoints (token,
 * revocation, device authorization) answer every failure, a body too large (413), of a type not
 * taken (415) or malformed (400) included, as RFC 6749's `{error, error_description}` at that
 * status: OAuth clients read nothing else. Its HTML pages answer an error page; the client
 * registrations of the route table keep the API's envelope.
 */
export function oauthErrorHandler(this: FastifyInstance, err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const replies = (req.routeOptions.config as { oauthReplies?: OAuthReplies } | undefined)?.oauthReplies;
  if (!replies) return handleError.call(this, err, req, reply);
  keepConnectionForSmallBody(err, req, reply);
  let status = 500;
  let description = 'internal error';
  if (err instanceof HopError) {
    status = ERROR_STATUS[err.code];
    description = err.message;
    const retryAfter = err.details.retryAfter;
    if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
  } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    status = err.statusCode;
    description = (err.code && BODY_FAILURES[err.code]) ?? err.message;
  }
  if (status >= 500) req.log.error({ err }, 'unhandled error');
  if (replies === 'page') return sendPage(reply, status, oauthErrorPage(status >= 500 ? 'Something went wrong on our side. Try again later.' : `The request cannot be read: ${description}.`));
  return sendOAuthError(reply, new OAuthError(status >= 500 ? 'server_error' : 'invalid_request', description), false, status);
}
