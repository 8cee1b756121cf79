import { z } from 'zod';
import { idSchema, TimestampSchema } from './ids.js';
import { ScopeSchema } from './scopes.js';

export const ApiKeySchema = z
  .object({
    id: idSchema('key'),
    name: z.string(),
    /** The first characters of the key, enough to recognise it in a list. */
    prefix: z.string(),
    scopes: z.array(ScopeSchema),
    workspaceId: idSchema('ws'),
    createdBy: idSchema('usr'),
    lastUsedAt: TimestampSchema.nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const CreateApiKeyBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(ScopeSchema).min(1).max(20),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBodySchema>;

/** The creation response is the only place the key itself appears. */
export const CreatedApiKeySchema = ApiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

export const ApiKeyParamsSchema = z.object({ workspaceId: idSchema('ws'), keyId: idSchema('key') });
