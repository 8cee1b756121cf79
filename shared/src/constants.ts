/**
 * Values with no schema, importable without zod (`@hop/shared/constants`): a cold CLI command
 * that needs one of them must not pay for loading every contract. Their resource files re-export
 * them, so `@hop/shared` still has everything.
 */

/** The CLI: a built-in public client with loopback redirects, the only one that may get `keys:manage`. */
export const HOP_CLI_CLIENT_ID = 'hop-cli';
export const HOP_CLI_REDIRECT_PATH = '/callback';

/** GitHub Actions' OIDC issuer: a CI trust names it unless it names another. */
export const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';

/** RFC 8693: the grant type, the type of the ID token a CI job presents, and of what it gets. */
export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** Roles from weakest to strongest; the order is what role checks compare. */
export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;

/**
 * The plans of plans mode (HOP_PLANS=on), weakest first: what an operator assigns and what a
 * workspace stores (docs/api.md, Limits).
 */
export const ASSIGNABLE_PLANS = ['free', 'starter', 'pro', 'business', 'enterprise'] as const;

/**
 * Every plan a workspace can read, weakest first. A self-hosted server (HOP_PLANS=off) reads every
 * workspace as `self-hosted`, above them all: every feature and no quota.
 */
export const PLANS = [...ASSIGNABLE_PLANS, 'self-hosted'] as const;

export const LINK_SORTS = ['createdAt', 'updatedAt', 'clicks', 'relevance'] as const;

/**
 * The token of an invite as a person may paste it: its link (`.../invites/<token>`) or the token
 * alone; undefined for nothing.
 */
export function inviteTokenFrom(value: string | null | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  const m = /\/invites\/([^/?#]+)/.exec(v);
  if (!m) return v;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}
