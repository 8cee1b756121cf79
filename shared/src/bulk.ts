import { z } from 'zod';
import { ErrorBodySchema } from './errors.js';

/** One result per input, in input order (docs/api.md, Wire conventions, bulk endpoints). */
export function bulkResultSchema<T extends z.ZodType>(item: T) {
  return z.discriminatedUnion('success', [
    z.object({ index: z.number().int(), success: z.literal(true), data: item }),
    z.object({ index: z.number().int(), success: z.literal(false), error: ErrorBodySchema.shape.error }),
  ]);
}
