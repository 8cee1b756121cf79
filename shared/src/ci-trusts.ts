import { z } from 'zod';
import { idSchema, TimestampSchema } from './ids.js';
import { ScopeSchema } from './scopes.js';
import { WorkspaceParamsSchema } from './workspaces.js';

import { ACCESS_TOKEN_TYPE, GITHUB_ACTIONS_ISSUER, ID_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE } from './constants.js';

export { ACCESS_TOKEN_TYPE, GITHUB_ACTIONS_ISSUER, ID_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE };

/** An issuer: an https URL (http only on a loopback host, for local issuers), no query or fragment. */
const IssuerSchema = z
  .string()
  .max(500)
  .refine((s) => {
    try {
      const u = new URL(s);
      if (u.search || u.hash || u.username || u.password) return false;
      return u.protocol === 'https:' || (u.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(u.hostname));
    } catch {
      return false;
    }
  }, 'must be the issuer\'s https URL (as its tokens carry it in iss), without query or fragment')
  .transform((s) => s.replace(/\/+$/, ''))
  .meta({ format: 'uri' });

/** A claim value a trust requires, compared exactly. */
const ClaimValueSchema = z.string().trim().min(1).max(300);

/**
 * A CI trust (docs/ci.md): jobs whose OIDC ID token comes from `issuer` and names `repository`
 * (and, when set, `ref`, `environment`, `workflow`) may exchange it for a short-lived access token
 * with `scopes` in this workspace.
 */
export const CiTrustSchema = z
  .object({
    id: idSchema('cit'),
    workspaceId: idSchema('ws'),
    issuer: z.string(),
    /** `owner/name` (GitHub's `repository`, GitLab's `project_path`). */
    repository: z.string(),
    /** `refs/heads/main` (GitHub's `ref`, GitLab's `ref` plus `ref_type`); null: any. */
    ref: z.string().nullable(),
    /** The deployment environment (`environment`, GitLab's too); null: any. */
    environment: z.string().nullable(),
    /** The workflow (GitHub's `workflow_ref` path, e.g. `.github/workflows/links.yml`; GitLab's `ci_config_ref_uri`); null: any. */
    workflow: z.string().nullable(),
    scopes: z.array(ScopeSchema),
    createdBy: idSchema('usr'),
    createdAt: TimestampSchema,
    lastUsedAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'CiTrust' });
export type CiTrust = z.infer<typeof CiTrustSchema>;

export const CreateCiTrustBodySchema = z.strictObject({
  issuer: IssuerSchema.default(GITHUB_ACTIONS_ISSUER),
  repository: z.string().trim().min(1).max(200).regex(/^[^\s*]+$/, 'must be the repository path, e.g. acme/site'),
  ref: ClaimValueSchema.optional(),
  environment: ClaimValueSchema.optional(),
  workflow: ClaimValueSchema.optional(),
  scopes: z.array(ScopeSchema).min(1).max(20),
});
export type CreateCiTrustBody = z.input<typeof CreateCiTrustBodySchema>;

export const CiTrustParamsSchema = WorkspaceParamsSchema.extend({ trustId: idSchema('cit') });

/** `POST /v1/oauth/token` with the token-exchange grant (RFC 8693 2.1), as a form. */
export const TokenExchangeRequestSchema = z.object({
  grant_type: z.literal(TOKEN_EXCHANGE_GRANT_TYPE),
  subject_token: z.string().min(1),
  subject_token_type: z.literal(ID_TOKEN_TYPE),
  /** The workspace (id or slug), when trusts of several workspaces match the token. */
  workspace: z.string().optional(),
});
export type TokenExchangeRequest = z.infer<typeof TokenExchangeRequestSchema>;

/** RFC 8693 2.2.1: an access token of at most 15 minutes, with no refresh token. */
export const TokenExchangeResponseSchema = z.object({
  access_token: z.string(),
  issued_token_type: z.literal(ACCESS_TOKEN_TYPE),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().max(900),
  scope: z.string(),
  workspace_id: idSchema('ws'),
});
export type TokenExchangeResponse = z.infer<typeof TokenExchangeResponseSchema>;
