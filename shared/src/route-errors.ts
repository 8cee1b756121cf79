import type { ErrorCode } from './errors.js';
import type { RouteName } from './routes.js';

/**
 * Errors a route answers beyond those of every route (VALIDATION_ERROR, UNAUTHORIZED, FORBIDDEN
 * and its kin, NOT_FOUND, RATE_LIMIT_EXCEEDED, INTERNAL_ERROR), those of a route with a body
 * (PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE) and of an idempotent one (CONFLICT while the first
 * request with a key is still running). The OpenAPI document lists each with its status.
 */
export const ROUTE_ERRORS: Partial<Record<RouteName, readonly ErrorCode[]>> = {
  signup: ['CONFLICT', 'SIGNUP_CLOSED', 'GONE'],
  updateMember: ['CONFLICT'],
  deleteMember: ['CONFLICT'],
  createInvite: ['CONFLICT'],
  getInvite: ['GONE'],
  acceptInvite: ['CONFLICT', 'GONE'],
  addDomain: ['CONFLICT'],
  verifyDomain: ['CONFLICT'],
  deleteDomain: ['CONFLICT'],
  retryDelivery: ['CONFLICT', 'GONE'],
};
