import { createHash, timingSafeEqual } from 'node:crypto';
import {
  HOP_CLI_CLIENT_ID, HOP_CLI_REDIRECT_PATH, LOOPBACK_REDIRECT_HOSTS, SCOPES,
  type CreateOAuthClientBody, type CreatedOAuthClient, type OAuthClient,
} from '@hop/shared';
import type { Database } from '../../db/database.js';
import { HopError, notFound } from '../errors.js';
import { randomBase62, type IdGenerator } from '../ids.js';
import type { Actor } from '../auth/actor.js';
import { requireHeldScopes } from '../auth/credentials.js';
import { iso } from '../timestamps.js';
import { afterCreated, createdKeyOf, pageOf, type PageQuery } from '../pagination.js';

interface ClientRow {
  id: string;
  workspace_id: string;
  name: string;
  type: 'confidential' | 'public';
  redirect_uris: string[];
  secret_hash: string | null;
  created_by: string | null;
  created_at: Date;
}

/** What the authorization server needs to know of a client, the built-in one included. */
export interface RegisteredClient {
  id: string;
  name: string;
  type: 'confidential' | 'public';
  redirectUris: string[];
  /** Only the first-party CLI may be granted keys:manage and act where a session is required. */
  firstParty: boolean;
  /** The workspace that registered it, which the consent page names; null for the built-in CLI. */
  registeredBy: { name: string; slug: string } | null;
  secretHash: string | null;
}

/** The CLI: public, loopback redirects on any port (RFC 8252). */
export const HOP_CLI_CLIENT: RegisteredClient = {
  id: HOP_CLI_CLIENT_ID,
  name: 'Hop CLI',
  type: 'public',
  redirectUris: LOOPBACK_REDIRECT_HOSTS.map((h) => `http://${h}${HOP_CLI_REDIRECT_PATH}`),
  firstParty: true,
  secretHash: null,
  registeredBy: null,
};

export const CLIENT_SECRET_PREFIX = 'hopcs_';
/** Every scope a third-party client may be granted (keys:manage is the CLI's alone). */
const THIRD_PARTY_SCOPES = SCOPES.filter((s) => s !== 'keys:manage');
const hash = (s: string) => createHash('sha256').update(s).digest('hex');

const toClient = (r: ClientRow): OAuthClient => ({
  id: r.id,
  clientId: r.id,
  name: r.name,
  type: r.type,
  redirectUris: r.redirect_uris,
  workspaceId: r.workspace_id,
  createdBy: r.created_by,
  createdAt: iso(r.created_at),
});

/** OAuth clients registered by workspaces (docs/api.md, Access), and client authentication at the token endpoint. */
export function createOAuthClientsService(deps: { db: Database; newId: IdGenerator }) {
  const { db, newId } = deps;
  const newSecret = () => CLIENT_SECRET_PREFIX + randomBase62(40);

  return {
    /**
     * A client may ask users for any scope but keys:manage, so a key or OAuth token that registers
     * one must hold all of those itself (docs/api.md, Access: it never grants more than it holds).
     */
    async create(actor: Actor, body: CreateOAuthClientBody): Promise<CreatedOAuthClient> {
      requireHeldScopes(actor, THIRD_PARTY_SCOPES);
      const secret = body.type === 'confidential' ? newSecret() : null;
      const [row] = await db.query<ClientRow>(
        `insert into oauth_clients (id, workspace_id, name, type, redirect_uris, secret_hash, created_by)
         values ($1, $2, $3, $4, $5::text[], $6, $7) returning *`,
        [newId('oac'), actor.workspaceId, body.name, body.type, [...new Set(body.redirectUris)], secret && hash(secret), actor.userId],
      );
      return { ...toClient(row), clientSecret: secret };
    },

    async list(workspaceId: string, q: PageQuery) {
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<ClientRow>(
        `select * from oauth_clients where workspace_id = $1 and ($2::timestamptz is null or (created_at, id) > ($2::timestamptz, $3))
         order by created_at, id limit $4`,
        [workspaceId, t, id, q.limit + 1],
      );
      return pageOf(rows, q.limit, toClient, afterCreated);
    },

    /** A new secret; the old one stops working at once. Tokens already issued stay valid. */
    async regenerateSecret(workspaceId: string, clientId: string): Promise<CreatedOAuthClient> {
      const [current] = await db.query<ClientRow>('select * from oauth_clients where id = $1 and workspace_id = $2', [clientId, workspaceId]);
      if (!current) throw notFound('oauth client');
      if (current.type !== 'confidential') {
        throw new HopError('VALIDATION_ERROR', 'a public client has no secret to regenerate', { issues: [{ path: 'type', message: 'public clients have no secret' }] });
      }
      const secret = newSecret();
      const [row] = await db.query<ClientRow>('update oauth_clients set secret_hash = $2 where id = $1 returning *', [clientId, hash(secret)]);
      return { ...toClient(row), clientSecret: secret };
    },

    /** Deletes the client and every grant (so every code and token) issued to it. */
    async delete(workspaceId: string, clientId: string): Promise<OAuthClient> {
      return db.transaction(async (tx) => {
        const [row] = await tx.query<ClientRow>('delete from oauth_clients where id = $1 and workspace_id = $2 returning *', [clientId, workspaceId]);
        if (!row) throw notFound('oauth client');
        await tx.query('delete from oauth_grants where client_id = $1', [clientId]);
        return toClient(row);
      });
    },

    /** The client behind a `client_id`, the built-in CLI included; null when there is none. */
    async find(clientId: string): Promise<RegisteredClient | null> {
      if (clientId === HOP_CLI_CLIENT_ID) return HOP_CLI_CLIENT;
      if (!/^oac_[0-9A-Za-z]{16,40}$/.test(clientId)) return null;
      const [row] = await db.query<ClientRow & { workspace_name: string; workspace_slug: string }>(
        `select c.*, w.name as workspace_name, w.slug as workspace_slug
         from oauth_clients c join workspaces w on w.id = c.workspace_id where c.id = $1`,
        [clientId],
      );
      if (!row) return null;
      return {
        id: row.id, name: row.name, type: row.type, redirectUris: row.redirect_uris, firstParty: false, secretHash: row.secret_hash,
        registeredBy: { name: row.workspace_name, slug: row.workspace_slug },
      };
    },

    /** Whether `secret` is the client's current secret, compared in constant time. */
    secretMatches(client: RegisteredClient, secret: string): boolean {
      if (!client.secretHash) return false;
      const a = Buffer.from(hash(secret));
      const b = Buffer.from(client.secretHash);
      return a.length === b.length && timingSafeEqual(a, b);
    },
  };
}

export type OAuthClientsService = ReturnType<typeof createOAuthClientsService>;
