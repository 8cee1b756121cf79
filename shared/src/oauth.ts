import { z } from 'zod';
import { RedirectUriSchema } from './urls.js';
import { idSchema, TimestampSchema } from './ids.js';
import { WorkspaceParamsSchema } from './workspaces.js';
import type { Scope } from './scopes.js';

export { HOP_CLI_CLIENT_ID, HOP_CLI_REDIRECT_PATH } from './constants.js';

/** How the consent page names each scope: plain words, not the scope string. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'links:read': 'See your links, search them and read their QR codes',
  'links:write': 'Create, change and delete links and QR codes, and rename or delete tags',
  'analytics:read': 'See click and scan statistics',
  'webhooks:manage': 'Create, change and delete webhooks, and watch the event stream',
  'workspaces:read': 'See which workspaces you belong to',
  'domains:read': 'See the custom domains of the workspace',
  'tags:read': 'See the tags in use',
  'workspace:read': 'See the workspace, its members and pending invites',
  'workspace:write': 'Rename the workspace, invite and change members, and manage custom domains',
  'keys:manage': 'Create and revoke API keys and OAuth clients',
};

export const OAUTH_CLIENT_TYPES = ['confidential', 'public'] as const;
export const OAuthClientTypeSchema = z.enum(OAUTH_CLIENT_TYPES);


export const OAuthClientSchema = z
  .object({
    id: idSchema('oac'),
    /** The `client_id` of the OAuth requests: the same value as `id`. */
    clientId: idSchema('oac'),
    name: z.string(),
    type: OAuthClientTypeSchema,
    redirectUris: z.array(z.string()),
    workspaceId: idSchema('ws'),
    createdBy: idSchema('usr').nullable(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'OAuthClient' });
export type OAuthClient = z.infer<typeof OAuthClientSchema>;

export const CreateOAuthClientBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  type: OAuthClientTypeSchema,
  redirectUris: z.array(RedirectUriSchema).min(1).max(10),
});
export type CreateOAuthClientBody = z.infer<typeof CreateOAuthClientBodySchema>;

/** Creation (and regeneration) is the only place the secret appears; public clients have none. */
export const CreatedOAuthClientSchema = OAuthClientSchema.extend({ clientSecret: z.string().nullable() });
export type CreatedOAuthClient = z.infer<typeof CreatedOAuthClientSchema>;

export const OAuthClientParamsSchema = WorkspaceParamsSchema.extend({ clientId: idSchema('oac') });

/**
 * The token endpoint's answer (RFC 6749 5.1), plus the workspace the token is bound to. The CLI's
 * own login (`hop-cli`) acts in every workspace of the user: its `workspace_id` is only the default
 * chosen at consent, null when the user had none.
 */
export const OAuthTokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  scope: z.string(),
  workspace_id: idSchema('ws').nullable(),
});
export type OAuthTokenResponse = z.infer<typeof OAuthTokenResponseSchema>;

/** `POST /v1/oauth/device/code` (RFC 8628 3.2): what the device shows and polls with. */
export const DeviceAuthorizationResponseSchema = z.object({
  device_code: z.string(),
  user_code: z.string(),
  verification_uri: z.string(),
  verification_uri_complete: z.string(),
  expires_in: z.number().int(),
  interval: z.number().int(),
});
export type DeviceAuthorizationResponse = z.infer<typeof DeviceAuthorizationResponseSchema>;

/** RFC 8628 3.4: the device code grant at the token endpoint. */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** The token and revocation endpoints' error body (RFC 6749 5.2), not the API's envelope. */
export const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });
export type OAuthError = z.infer<typeof OAuthErrorSchema>;
