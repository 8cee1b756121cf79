import { HOP_CLI_CLIENT_ID, type OAuthGrant, type Scope } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { afterCreated, createdKeyOf, pageOf, type PageQuery } from '../pagination.js';
import { iso } from '../timestamps.js';
import { HOP_CLI_CLIENT } from './oauth-clients-service.js';

/** `last_used_at` is written when it is older than this: a busy token costs no write per request. */
export const TOUCH_EVERY_MS = 60_000;

interface GrantListRow {
  id: string;
  client_id: string;
  client_name: string | null;
  workspace_id: string | null;
  scopes: Scope[];
  created_at: Date;
  last_used_at: Date | null;
}

type WorkspaceRef = OAuthGrant['workspaces'][number];

/** Ends a grant: marked revoked, and every token issued from it deleted (so none authenticates again). */
export async function revokeGrantRows(q: Queryable, grantId: string, now: Date): Promise<boolean> {
  const rows = await q.query('update oauth_grants set revoked_at = $2 where id = $1 and revoked_at is null returning 1', [grantId, now]);
  await q.query('delete from oauth_tokens where grant_id = $1', [grantId]);
  return rows.length > 0;
}

/**
 * Connected apps (docs/api.md, Accounts): the grants a user gave, listed and revoked by the user,
 * and the CLI's own logins (`hop-cli` grants), which signing out everywhere ends too.
 */
export function createOAuthGrants(deps: { db: Queryable; clock: Clock }) {
  const { db, clock } = deps;

  async function present(userId: string, rows: GrantListRow[]): Promise<(r: GrantListRow) => OAuthGrant> {
    // The CLI's login acts in every workspace of the user; a third-party grant in its own one.
    const mine = rows.some((r) => r.client_id === HOP_CLI_CLIENT_ID)
      ? await db.query<WorkspaceRef>(
        `select w.id, w.slug, w.name from workspaces w join memberships m on m.workspace_id = w.id
         where m.user_id = $1 order by w.created_at, w.id`, [userId])
      : [];
    const boundIds = [...new Set(rows.map((r) => r.workspace_id).filter((id): id is string => id !== null))];
    const bound = boundIds.length
      ? await db.query<WorkspaceRef>('select id, slug, name from workspaces where id = any($1::text[])', [boundIds])
      : [];
    const byId = new Map(bound.map((w) => [w.id, { id: w.id, slug: w.slug, name: w.name }]));
    return (r) => ({
      id: r.id,
      clientId: r.client_id,
      clientName: r.client_id === HOP_CLI_CLIENT_ID ? HOP_CLI_CLIENT.name : (r.client_name ?? r.client_id),
      scopes: r.scopes,
      workspaces: r.client_id === HOP_CLI_CLIENT_ID
        ? mine.map((w) => ({ id: w.id, slug: w.slug, name: w.name }))
        : (r.workspace_id && byId.get(r.workspace_id) ? [byId.get(r.workspace_id)!] : []),
      createdAt: iso(r.created_at),
      lastUsedAt: r.last_used_at ? iso(r.last_used_at) : null,
    });
  }

  const SELECT = `select g.id, g.client_id, c.name as client_name, g.workspace_id, g.scopes, g.created_at, g.last_used_at
    from oauth_grants g left join oauth_clients c on c.id = g.client_id`;

  return {
    /** The user's standing grants, oldest first. */
    async list(userId: string, q: PageQuery) {
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<GrantListRow>(
        `${SELECT} where g.user_id = $1 and g.revoked_at is null
           and ($2::timestamptz is null or (g.created_at, g.id) > ($2::timestamptz, $3))
         order by g.created_at, g.id limit $4`,
        [userId, t, id, q.limit + 1],
      );
      return pageOf(rows, q.limit, await present(userId, rows.slice(0, q.limit)), afterCreated);
    },

    /** Revokes one of the user's grants; another user's, or an unknown one, is 404. */
    async revoke(userId: string, grantId: string): Promise<OAuthGrant> {
      const [row] = await db.query<GrantListRow>(`${SELECT} where g.id = $1 and g.user_id = $2 and g.revoked_at is null`, [grantId, userId]);
      if (!row) throw notFound('grant');
      const shown = (await present(userId, [row]))(row);
      await revokeGrantRows(db, grantId, clock.now());
      return shown;
    },

    /** Ends the user's CLI logins, but `exceptGrantId`; answers how many. */
    async revokeCliLogins(userId: string, exceptGrantId?: string): Promise<number> {
      const rows = await db.query<{ id: string }>(
        `select id from oauth_grants where user_id = $1 and client_id = $2 and revoked_at is null and id <> $3`,
        [userId, HOP_CLI_CLIENT_ID, exceptGrantId ?? ''],
      );
      for (const r of rows) await revokeGrantRows(db, r.id, clock.now());
      return rows.length;
    },

    /** Ends one CLI login of the user (its `hop logout`); false when it was not one. */
    async revokeCliLogin(userId: string, grantId: string): Promise<boolean> {
      const [row] = await db.query('select 1 from oauth_grants where id = $1 and user_id = $2 and client_id = $3', [grantId, userId, HOP_CLI_CLIENT_ID]);
      return Boolean(row) && revokeGrantRows(db, grantId, clock.now());
    },

    /** Notes a use of the grant, unless one was noted within the last minute. */
    async touch(grantId: string, lastUsedAt: Date | null): Promise<void> {
      const now = clock.now();
      if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < TOUCH_EVERY_MS) return;
      await db.query('update oauth_grants set last_used_at = $2 where id = $1', [grantId, now]);
    },
  };
}

export type OAuthGrants = ReturnType<typeof createOAuthGrants>;
