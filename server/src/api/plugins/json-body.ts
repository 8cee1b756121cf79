import type { FastifyRequest } from 'fastify';
import sjson from 'secure-json-parse';
import { HopError, validationError } from '../../domain/errors.js';

const invalid = (message: string) => validationError('body', message);

/**
 * JSON bodies, parsed as Fastify's own parser does (secure-json-parse: `__proto__` and
 * `constructor.prototype` refused), but a body nested so deep that parsing exhausts the stack is
 * a 400 like any other bad JSON, not a crash. An empty body is no body.
 */
export function parseJsonBody(_req: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.length === 0) return done(null, undefined);
  try {
    done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
  } catch (err) {
    if (err instanceof RangeError) return done(invalid('is nested too deeply'));
    done(invalid(err instanceof SyntaxError ? 'is not valid JSON' : (err as Error).message));
  }
}
