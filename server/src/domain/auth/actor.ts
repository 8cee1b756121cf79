import type { Membership } from '../workspaces/workspaces-service.js';
import type { Principal } from './credentials.js';

/**
 * Who acts in a workspace, as the API layer resolved it before the handler ran: the user and the
 * credential they presented, the workspace, their role there and the credential's scopes. The one
 * shape every service takes where it needs to know who acts (docs/api.md, Access).
 */
export interface Actor extends Membership {
  kind: Principal['kind'];
  userId: string;
  credentialId: string;
  scopes: Principal['scopes'];
  /** The OAuth client, when the credential is an access token. */
  clientId?: string;
}

/** The actor of `principal` in a workspace it was found a member of. */
export function actorOf(principal: Principal, membership: Membership): Actor {
  const { kind, userId, credentialId, scopes, clientId } = principal;
  return { ...membership, kind, userId, credentialId, scopes, ...(clientId ? { clientId } : {}) };
}
