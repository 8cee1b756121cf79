import { ERROR_STATUS, ErrorBodySchema, ROUTE_ERRORS, routes, type ErrorCode, type RouteName } from '@hop/shared';

const EVERY_ROUTE: ErrorCode[] = ['VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR'];

/**
 * The error answers of one route, by status, each in the contract's error shape: what the
 * OpenAPI document lists for the operation (and what serialises its errors).
 */
export function errorResponses(name: RouteName) {
  const def = routes[name];
  const codes = [...EVERY_ROUTE];
  if ('body' in def) codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if ('idempotent' in def && def.idempotent) codes.push('CONFLICT');
  codes.push(...(ROUTE_ERRORS[name] ?? []));
  return Object.fromEntries([...new Set(codes.map((c) => ERROR_STATUS[c]))].sort().map((status) => [status, ErrorBodySchema]));
}
