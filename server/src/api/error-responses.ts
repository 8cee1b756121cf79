import { ERROR_STATUS, ErrorBodySchema, ROUTE_ERRORS, routes, type ErrorCode, type RouteDef, type RouteName } from '@hop/shared';

const EVERY_ROUTE: ErrorCode[] = ['VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR'];

/**
 * The error answers of one route, by status, each in the contract's error shape: what the
 * OpenAPI document lists for the operation (and what serialises its errors).
 */
export function errorResponses(name: RouteName) {
  const def = routes[name];
  return errorResponsesOf(def as RouteDef, ROUTE_ERRORS[name] ?? []);
}

/** The same for a route declared beside the table (`body` and `idempotent` as the table has them). */
export function errorResponsesOf(def: Pick<RouteDef, 'body' | 'idempotent'>, extra: readonly ErrorCode[] = [], base: readonly ErrorCode[] = EVERY_ROUTE) {
  const codes = [...base];
  if (def.body) codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (def.idempotent) codes.push('CONFLICT');
  codes.push(...extra);
  return Object.fromEntries([...new Set(codes.map((c) => ERROR_STATUS[c]))].sort().map((status) => [status, ErrorBodySchema]));
}
