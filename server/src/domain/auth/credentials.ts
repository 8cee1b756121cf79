import type { Role, Scope } from '@hop/shared';
import { SCOPES } from '@hop/shared';
import { HopError } from '../errors.js';

/** Who is calling, once a credential has been checked. */
export interface Principal {
  /** `ciToken`: an access token a CI job exchanged its OIDC ID token for (docs/ci.md). */
  kind: 'session' | 'apiKey' | 'oauth' | 'ciToken';
  userId: string;
  /** A session has every scope; a key what it was given. */
  scopes: readonly Scope[];
  /** Id of the credential, for rate limits and idempotency records (an OAuth token: its grant; a CI token: its trust). */
  credentialId: string;
  /**
   * The one workspace the credential is bound to (an API key, a third-party OAuth token, a CI token); unset
   * for credentials that act in each of the user's workspaces with the user's role (a session).
   */
  workspaceId?: string;
  /** The OAuth client an access token was issued to. */
  clientId?: string;
  /** The sign-in session of a session token (its server-side record). */
  sessionId?: string;
}

export const ALL_SCOPES: readonly Scope[] = SCOPES;

/**
 * A credential never grants more than it holds (docs/api.md, Access): what a key or an OAuth token creates
 * gets at most its scopes. A session holds every scope; its role bounds what it can do.
 */
export function requireHeldScopes(creator: Pick<Principal, 'kind' | 'scopes'>, wanted: readonly Scope[]) {
  if (creator.kind === 'session') return;
  const missing = wanted.find((s) => !creator.scopes.includes(s));
  if (missing) {
    throw new HopError('INSUFFICIENT_SCOPE', `a credential cannot grant the ${missing} scope, which it does not hold itself`, {
      requiredScope: missing,
      grantedScopes: creator.scopes,
    });
  }
}
