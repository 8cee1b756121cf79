import { z } from 'zod';

/** SPEC's nine scopes plus `keys:manage` (CONTRACT 2). Case-sensitive. */
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
