import { createHash } from 'node:crypto';
import type { ApiKey, CreateApiKeyBody, CreatedApiKey, Scope } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import { notFound, HopError } from '../errors.js';
import { randomBase62, type IdGenerator } from '../ids.js';
import { iso, isoOrNull } from '../timestamps.js';
import type { Principal } from '../auth/credentials.js';
import { roleAtLeast } from '@hop/shared';
import { requireHeldScopes } from '../auth/credentials.js';
import type { Actor } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import { afterCreated, createdKeyOf, pageOf, type PageQuery } from '../pagination.js';

export const API_KEY_PREFIX = 'hop_live_';

interface ApiKeyRow {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  last_used_at: Date | null;
  created_at: Date;
}

const toApiKey = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scopes: r.scopes,
  workspaceId: r.workspace_id,
  createdBy: r.user_id,
  lastUsedAt: isoOrNull(r.last_used_at),
  createdAt: iso(r.created_at),
});

// Keys carry 190 bits of randomness, so a fast hash is enough: nobody can guess their way back.
const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

// lastUsedAt is kept to the minute: writing on every request would cost a write per call.
const LAST_USED_GRANULARITY_MS = 60_000;

export function createApiKeysService(deps: { db: Queryable; newId: IdGenerator; clock: Clock }) {
  const { db, newId, clock } = deps;

  return {
    /**
     * A new key of the actor's, in the actor's workspace. Made with a key or an OAuth token, it
     * holds at most that credential's scopes (docs/api.md, Access); made with a session, any scopes: its
     * power is then bounded at each request by its creator's role, as the session's is.
     */
    async create(actor: Actor, body: CreateApiKeyBody): Promise<CreatedApiKey> {
      const scopes = [...new Set(body.scopes)];
      requireHeldScopes(actor, scopes);
      const key = API_KEY_PREFIX + randomBase62(32);
      const [row] = await db.query<ApiKeyRow>(
        `insert into api_keys (id, workspace_id, user_id, name, prefix, key_hash, scopes)
         values ($1, $2, $3, $4, $5, $6, $7::text[]) returning *`,
        [newId('key'), actor.workspaceId, actor.userId, body.name, key.slice(0, API_KEY_PREFIX.length + 4), hashKey(key), scopes],
      );
      return { ...toApiKey(row), key };
    },

    /** Admins and owners see every key of the workspace; others see the keys they made. */
    async list(actor: Actor, q: PageQuery) {
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<ApiKeyRow>(
        `select * from api_keys where workspace_id = $1 and ($2::text is null or user_id = $2)
           and ($3::timestamptz is null or (created_at, id) > ($3::timestamptz, $4))
         order by created_at, id limit $5`,
        [actor.workspaceId, roleAtLeast(actor.role, 'admin') ? null : actor.userId, t, id, q.limit + 1],
      );
      return pageOf(rows, q.limit, toApiKey, afterCreated);
    },

    async delete(actor: Actor, keyId: string): Promise<ApiKey> {
      const [row] = await db.query<ApiKeyRow>('select * from api_keys where id = $1 and workspace_id = $2', [keyId, actor.workspaceId]);
      if (!row) throw notFound('api key');
      if (row.user_id !== actor.userId && !roleAtLeast(actor.role, 'admin')) {
        throw new HopError('FORBIDDEN', 'only admins may revoke keys made by others', { requiredRole: 'admin' });
      }
      await db.query('delete from api_keys where id = $1', [keyId]);
      return toApiKey(row);
    },

    /** The principal behind a key, or null when it is unknown or revoked. */
    async authenticate(key: string): Promise<Principal | null> {
      if (!key.startsWith(API_KEY_PREFIX) || key.length > 100) return null;
      const [row] = await db.query<ApiKeyRow>('select * from api_keys where key_hash = $1', [hashKey(key)]);
      if (!row) return null;
      const now = clock.now();
      if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > LAST_USED_GRANULARITY_MS) {
        await db.query('update api_keys set last_used_at = $2 where id = $1', [row.id, now]);
      }
      return { kind: 'apiKey', userId: row.user_id, scopes: row.scopes, credentialId: row.id, workspaceId: row.workspace_id };
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
