import { z } from 'zod';

/** The nine scopes plus `keys:manage` (docs/api.md, Access). Case-sensitive. */
export const SCOPES = [
  'links:read',
  'links:write',
  'analytics:read',
  'webhooks:manage',
  'workspaces:read',
  'domains:read',
  'tags:read',
  'workspace:read',
  'workspace:write',
  'keys:manage',
] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;
