import { z } from 'zod';

/** `{success: true, data}`: the shape of every success body (docs/api.md, Wire conventions). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const PaginationSchema = z.object({
  nextCursor: z.string().nullable(),
  limit: z.number().int(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

/** A page of a list: the envelope plus the cursor of the next page. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), pagination: PaginationSchema });
}

/** `limit` and `cursor` of every list (docs/api.md, Limits: 1-100, default 20). */
export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(512).optional(),
});

/** The query of a list with no filter of its own. */
export const ListQuerySchema = PageQuerySchema.strict();
