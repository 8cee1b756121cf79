import type { z } from 'zod';
import type { Role } from '../workspaces.js';
import type { Scope } from '../scopes.js';
import type { GatedFeature } from '../plans.js';

/**
 * Who may call a route:
 * - `public`: anyone;
 * - `credential`: a session, an API key or an OAuth token, checked against `scope` and `role`;
 * - `session`: a dashboard session only (used where a key must not act, e.g. creating workspaces
 *   is allowed to keys too, so it is rare);
 * - `admin`: the server's operator: its `X-Admin-Token`, or the operator account's own session or
 *   CLI login (the first account of the server).
 */
export type RouteAuth = 'public' | 'credential' | 'session' | 'admin';

/**
 * Where a credential route's workspace comes from, resolved before its handler runs:
 * - `path`: the `:workspaceId` in its path;
 * - `link` / `qr`: the workspace of the link (`:linkId`) or QR code (`:qrId`) it names;
 * - `credential`: the workspace the API key or OAuth token is bound to (refused to other credentials);
 * - `none`: the route acts on the account, in no workspace.
 * Membership, role, scope and both rate-limit buckets are checked against that workspace.
 */
export type WorkspaceSource = 'path' | 'link' | 'qr' | 'credential' | 'none';

/** The OpenAPI document's tags: one per resource, each described, in the order the reference lists them. */
export const ROUTE_TAGS = {
  server: 'The server: its version, its mode (self-hosted or plans) and who may sign up',
  auth: 'Accounts: sign-up, sign-in and the signed-in user',
  workspaces: 'Workspaces, their plan and usage',
  members: 'Members of a workspace, and invites',
  'api-keys': 'API keys of a workspace',
  oauth: 'The authorization server (OAuth 2.0 with PKCE, device flow) and its client registrations',
  ci: 'CI trusts: jobs of a named repository exchange their OIDC ID token for a short-lived access token',
  links: 'Short links: create, list, change, delete, bulk',
  analytics: 'Clicks of a link, a workspace or a QR code',
  qr: 'QR codes of a link and their images',
  domains: 'Custom short domains',
  tags: 'Tags on links',
  webhooks: 'Webhooks, their deliveries, and the live event stream',
  events: 'The events Hop sends to webhooks (the `webhooks` section)',
  integration: 'The integration surface under /api/v1 for no-code tools: answers without the envelope',
  admin: "The operator's API (X-Admin-Token)",
} as const;
export type RouteTag = keyof typeof ROUTE_TAGS;

export interface RouteDef {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Fastify-style path (`:param`); the client fills it in, OpenAPI shows `{param}`. */
  path: string;
  summary: string;
  /** More than the summary says, when there is more; the document adds who may call it. */
  description?: string;
  tag: RouteTag;
  auth: RouteAuth;
  /** Required for `credential` and `session` routes (the server refuses to start without it). */
  workspace?: WorkspaceSource;
  /** Scope a key or OAuth token must carry. */
  scope?: Scope;
  /** Weakest workspace role allowed, for routes acting in a workspace. */
  role?: Role;
  /**
   * Plan feature the workspace must have (plans.ts, GATED_FEATURES), refused with TIER_REQUIRED.
   * Only where the whole route needs it: a rule that depends on the body (a field that needs a
   * plan) stays in its service.
   */
  feature?: GatedFeature;
  status: 200 | 201 | 202;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Honour `Idempotency-Key` (docs/api.md, Links). */
  idempotent?: boolean;
  /** Answer the data itself, without the envelope (the integration surface under /api/v1). */
  bare?: boolean;
}

export function route<const R extends RouteDef>(r: R): R {
  return r;
}
