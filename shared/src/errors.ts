import { z } from 'zod';

/** Every error code of docs/api.md, Wire conventions with its HTTP status: the one table both sides read. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  SLUG_ALREADY_EXISTS: 400,
  URL_NOT_ALLOWED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  INSUFFICIENT_SCOPE: 403,
  TIER_REQUIRED: 403,
  SIGNUP_CLOSED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

export const ErrorBodySchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string(),
      statusCode: z.number().int(),
      details: z.record(z.string(), z.unknown()),
    }),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
