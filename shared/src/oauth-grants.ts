import { z } from 'zod';
import { idSchema, TimestampSchema } from './ids.js';
import { ScopeSchema } from './scopes.js';

/**
 * A connected app: one consent a user gave an OAuth client (the CLI's own login, `hop-cli`,
 * included). Third-party grants act in the one workspace chosen at consent; the CLI's in every
 * workspace of the user, listed as they are now.
 */
export const OAuthGrantSchema = z
  .object({
    id: idSchema('oag'),
    clientId: z.string(),
    clientName: z.string(),
    scopes: z.array(ScopeSchema),
    workspaces: z.array(z.object({ id: idSchema('ws'), slug: z.string(), name: z.string() })),
    createdAt: TimestampSchema,
    /** The last time one of its tokens was used or refreshed (at most once a minute); null before. */
    lastUsedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'OAuthGrant' });
export type OAuthGrant = z.infer<typeof OAuthGrantSchema>;

export const OAuthGrantParamsSchema = z.strictObject({ grantId: idSchema('oag') });
