import type { AdminUpdateWorkspaceBody, AdminWorkspace, AssignablePlan, CreateWorkspaceBody, Plan, Role, Workspace } from '@hop/shared';
import type { Database, Queryable } from '../../db/database.js';
import { HopError, notFound } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { iso } from '../timestamps.js';
import { afterCreated, createdKeyOf, pageOf, type PageQuery } from '../pagination.js';
import type { PlanMode } from '../plans/plan-mode.js';

interface WorkspaceRow {
  id: string;
  name: string;
  slug: string;
  /** As stored: read it through PlanMode. */
  plan: AssignablePlan;
  rate_limit_per_hour: number | null;
  rate_limit_per_minute: number | null;
  created_at: Date;
  role?: Role;
}

/** The caller's standing in one workspace: what role checks and plan gates read. */
export interface Membership {
  workspaceId: string;
  slug: string;
  plan: Plan;
  role: Role;
}

const toWorkspace = (plans: PlanMode) => (r: WorkspaceRow & { role: Role }): Workspace => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  role: r.role,
  plan: plans.planOf(r.plan),
  createdAt: iso(r.created_at),
});

const toAdminWorkspace = (r: WorkspaceRow): AdminWorkspace => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  plan: r.plan,
  rateLimit:
    r.rate_limit_per_hour != null && r.rate_limit_per_minute != null
      ? { perHour: r.rate_limit_per_hour, perMinute: r.rate_limit_per_minute }
      : null,
  createdAt: iso(r.created_at),
});

async function suggestSlug(db: Queryable, slug: string): Promise<string> {
  const base = slug.slice(0, 44);
  const candidates = Array.from({ length: 9 }, (_, i) => `${base}-${i + 2}`);
  const taken = new Set(
    (await db.query<{ slug: string }>('select slug from workspaces where slug = any($1::text[])', [candidates])).map((r) => r.slug),
  );
  return candidates.find((c) => !taken.has(c)) ?? `${base}-${Date.now().toString(36).slice(-3)}`;
}

/** `defaultPlan`: the plan new workspaces store (HOP_DEFAULT_PLAN); `plans`: how a stored plan reads (HOP_PLANS). */
export function createWorkspacesService(deps: { db: Database; newId: IdGenerator; plans: PlanMode; defaultPlan?: AssignablePlan }) {
  const { db, newId, plans, defaultPlan = 'free' } = deps;
  const asWorkspace = toWorkspace(plans);

  return {
    async create(userId: string, body: CreateWorkspaceBody): Promise<Workspace> {
      return db.transaction(async (tx) => {
        const [row] = await tx.query<WorkspaceRow>(
          `insert into workspaces (id, name, slug, plan) values ($1, $2, $3, $4) on conflict (slug) do nothing returning *`,
          [newId('ws'), body.name, body.slug, defaultPlan],
        );
        if (!row) {
          const suggestion = await suggestSlug(tx, body.slug);
          throw new HopError('SLUG_ALREADY_EXISTS', `the workspace slug "${body.slug}" is taken; "${suggestion}" is free`, {
            field: 'slug', value: body.slug, suggestion,
          });
        }
        await tx.query(`insert into memberships (workspace_id, user_id, role) values ($1, $2, 'owner')`, [row.id, userId]);
        return asWorkspace({ ...row, role: 'owner' });
      });
    },

    async listForUser(userId: string, onlyWorkspaceId?: string): Promise<Workspace[]> {
      const rows = await db.query<WorkspaceRow & { role: Role }>(
        `select w.*, m.role from workspaces w join memberships m on m.workspace_id = w.id
         where m.user_id = $1 and ($2::text is null or w.id = $2) order by w.created_at, w.id`,
        [userId, onlyWorkspaceId ?? null],
      );
      return rows.map(asWorkspace);
    },

    /** A page of the user's workspaces (only `onlyWorkspaceId` for a credential bound to one). */
    async list(userId: string, q: PageQuery, onlyWorkspaceId?: string) {
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<WorkspaceRow & { role: Role }>(
        `select w.*, m.role from workspaces w join memberships m on m.workspace_id = w.id
         where m.user_id = $1 and ($2::text is null or w.id = $2)
           and ($3::timestamptz is null or (w.created_at, w.id) > ($3::timestamptz, $4))
         order by w.created_at, w.id limit $5`,
        [userId, onlyWorkspaceId ?? null, t, id, q.limit + 1],
      );
      return pageOf(rows, q.limit, asWorkspace, afterCreated);
    },

    /** The caller's membership, or null when the workspace does not exist or is not theirs. */
    async membership(userId: string, workspaceId: string): Promise<Membership | null> {
      const [row] = await db.query<{ slug: string; plan: AssignablePlan; role: Role }>(
        `select w.slug, w.plan, m.role from workspaces w join memberships m on m.workspace_id = w.id
         where w.id = $1 and m.user_id = $2`,
        [workspaceId, userId],
      );
      return row ? { workspaceId, slug: row.slug, plan: plans.planOf(row.plan), role: row.role } : null;
    },

    async get(userId: string, workspaceId: string): Promise<Workspace> {
      const [ws] = await this.listForUser(userId, workspaceId);
      if (!ws) throw notFound('workspace');
      return ws;
    },

    async update(userId: string, workspaceId: string, name: string): Promise<Workspace> {
      await db.query('update workspaces set name = $2 where id = $1', [workspaceId, name]);
      return this.get(userId, workspaceId);
    },

    /** Deletes the workspace; links, keys and memberships go with it (foreign keys cascade). */
    async delete(userId: string, workspaceId: string): Promise<Workspace> {
      const ws = await this.get(userId, workspaceId);
      await db.query('delete from workspaces where id = $1', [workspaceId]);
      return ws;
    },

    /** The operator's plan change (docs/api.md, Access); `rateLimit: null` returns to the plan's defaults. */
    async adminUpdate(workspaceId: string, body: AdminUpdateWorkspaceBody): Promise<AdminWorkspace> {
      const keepLimits = body.rateLimit === undefined;
      const [row] = await db.query<WorkspaceRow>(
        `update workspaces set plan = $2,
           rate_limit_per_hour = case when $3 then rate_limit_per_hour else $4::int end,
           rate_limit_per_minute = case when $3 then rate_limit_per_minute else $5::int end
         where id = $1 returning *`,
        [workspaceId, body.plan, keepLimits, body.rateLimit?.perHour ?? null, body.rateLimit?.perMinute ?? null],
      );
      if (!row) throw notFound('workspace');
      return toAdminWorkspace(row);
    },
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
