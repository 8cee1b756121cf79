import type { Role, Scope } from '@hop/shared';
import { ROLES, SCOPES } from '@hop/shared';

/** Who is calling, once a credential has been checked. */
export interface Principal {
  kind: 'session' | 'apiKey' | 'oauth';
  userId: string;
  /** A session has every scope; a key what it was given. */
  scopes: readonly Scope[];
  /** Id of the credential, for rate limits and idempotency records (an OAuth token: its grant). */
  credentialId: string;
  /** A key or an OAuth token is bound to one workspace; a session is not. */
  workspaceId?: string;
  /** The OAuth client an access token was issued to. */
  clientId?: string;
}

export const ALL_SCOPES: readonly Scope[] = SCOPES;

export function roleAtLeast(role: Role, required: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(required);
}
