import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_STATUS, type ErrorCode } from '@hop/shared';
import { HopError } from '../../domain/errors.js';
import { retryAfterSeconds } from '../../domain/rate-limits/rate-limiter.js';
import { bearerRefusals } from './authentication.js';

/** The error body of the contract, from a code, a message and its details. */
export function errorBody(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
  return { code, message, statusCode: ERROR_STATUS[code], details };
}

/**
 * The one place an error's status and headers are set: the status from the contract's table, and
 * for a refusal with a window (`details.resetAt`), Retry-After in seconds.
 */
export function sendError(reply: FastifyReply, code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
  const statusCode = ERROR_STATUS[code];
  const resetAt = typeof details.resetAt === 'string' ? Date.parse(details.resetAt) : NaN;
  if (code === 'RATE_LIMIT_EXCEEDED' && !Number.isNaN(resetAt)) {
    reply.header('retry-after', String(retryAfterSeconds(resetAt)));
  }
  // RFC 9110 11.6.1 and RFC 6750 3: a 401 names the scheme that would get in.
  if (code === 'UNAUTHORIZED' && !reply.hasHeader('www-authenticate')) reply.header('www-authenticate', BEARER_REALM);
  return reply
    .code(statusCode)
    .type('application/json; charset=utf-8')
    .send({ success: false, error: errorBody(code, message, details) });
}

const BEARER_REALM = 'Bearer realm="hop"';

/** RFC 6750 3: the challenge of a refused Bearer credential, with its error code and why. */
function bearerChallenge(err: HopError): string {
  const error = bearerRefusals.get(err);
  if (!error) return BEARER_REALM;
  // RFC 6750's error_description may hold neither a double quote nor a backslash.
  const description = err.message.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "'");
  return `${BEARER_REALM}, error="${error}", error_description="${description}"`;
}

// Fastify's own failures before a handler runs, mapped to the contract's codes.
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_ERROR',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_ERROR',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_ERROR',
  FST_ERR_CTP_EMPTY_TYPE: 'VALIDATION_ERROR',
  FST_ERR_CTP_INVALID_TYPE: 'VALIDATION_ERROR',
  FST_ERR_VALIDATION: 'VALIDATION_ERROR',
  FST_ERR_BAD_URL: 'VALIDATION_ERROR',
  FST_ERR_ASYNC_CONSTRAINT: 'VALIDATION_ERROR',
};

/** SQLSTATEs of a NUL byte: `invalid byte sequence for encoding "UTF8": 0x00` and `unsupported Unicode escape sequence`. */
const DATABASE_NUL_CODES = new Set(['22021', '22P05']);

/**
 * How much of a body declared too large is read and thrown away so that its answer arrives.
 * Fastify answers such a body before reading it and asks for the connection to close; closing a
 * socket with unread bytes in it sends a TCP reset, which can reach the client while it is still
 * writing, before it has read the 413: it sees EPIPE or ECONNRESET instead of the answer. Up to
 * this size the connection stays open instead, Node reads the rest of the body once the answer is
 * out (as it does for any request whose body went unread), and the client reads the 413 and may
 * reuse the connection. A larger declared body still closes: reading it would cost more than a
 * client that sends one is owed.
 */
const UNREAD_BODY_DRAIN_LIMIT = 8 * 1024 * 1024;

/** A body declared too large but small enough to drain keeps its connection (see above). */
export function keepConnectionForSmallBody(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  // Only Fastify's own close is taken back: one the server set on the response itself (a graceful
  // stop, connection-drain.ts) stands, and the connection closes once the body is read.
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && Number(req.headers['content-length']) <= UNREAD_BODY_DRAIN_LIMIT
    && !reply.raw.hasHeader('connection')) {
    reply.removeHeader('connection');
  }
}

export function handleError(this: FastifyInstance, err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof HopError) {
    // A refusal that knows when it ends says so in the header too (RFC 9110 10.2.3).
    const retryAfter = err.details.retryAfter;
    if (err.code === 'RATE_LIMIT_EXCEEDED' && typeof retryAfter === 'number' && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(retryAfter));
    }
    if (err.code === 'UNAUTHORIZED') reply.header('www-authenticate', bearerChallenge(err));
    return sendError(reply, err.code, err.message, err.details);
  }

  if (hasZodFastifySchemaValidationErrors(err)) {
    const where = err.validationContext ?? 'body';
    const issues = err.validation.map((v) => {
      const path = v.instancePath.split('/').filter(Boolean).join('.');
      return { path: where === 'body' ? path : [where === 'querystring' ? 'query' : where, path].filter(Boolean).join('.'), message: v.message };
    });
    const first = issues[0];
    return sendError(reply, 'VALIDATION_ERROR', `${first?.path || where}: ${first?.message ?? 'invalid'}`, { issues });
  }

  if (isResponseSerializationError(err)) {
    req.log.error({ err, issues: err.cause?.issues }, 'response does not match its contract');
    return sendError(reply, 'INTERNAL_ERROR', 'internal error', { requestId: req.id });
  }

  const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
  keepConnectionForSmallBody(err, req, reply);
  if (mapped) {
    const message = mapped === 'VALIDATION_ERROR' && err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'body is not valid JSON' : err.message;
    return sendError(reply, mapped, message, mapped === 'VALIDATION_ERROR' ? { issues: [{ path: 'body', message }] } : {});
  }
  // JSON.parse failures surface as SyntaxError with status 400.
  if (err instanceof SyntaxError || err.statusCode === 400) {
    return sendError(reply, 'VALIDATION_ERROR', 'body is not valid JSON', { issues: [{ path: 'body', message: err.message }] });
  }
  if (err.statusCode === 413) return sendError(reply, 'PAYLOAD_TOO_LARGE', 'body over 1 MiB');
  // The database refused a NUL in text (22021) or in JSON (22P05), PostgreSQL and embedded PGlite
  // alike: input that no check caught before it was stored or looked up by, and still bad input.
  if (err.code && DATABASE_NUL_CODES.has(err.code)) {
    const message = 'may not contain the NUL character';
    return sendError(reply, 'VALIDATION_ERROR', `request: ${message}`, { issues: [{ path: 'request', message }] });
  }
  if (err.statusCode === 415) return sendError(reply, 'UNSUPPORTED_MEDIA_TYPE', err.message);

  req.log.error({ err }, 'unhandled error');
  return sendError(reply, 'INTERNAL_ERROR', 'internal error', { requestId: req.id });
}

/** One error handler and one not-found handler: every failure leaves in the contract's shape. */
export const errorHandlerPlugin = fp(
  async (app) => {
    app.setErrorHandler(handleError);
    app.setNotFoundHandler((req, reply) =>
      sendError(reply, 'NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`, { resource: 'route' }),
    );
  },
  { name: 'hop-error-handler' },
);
