import { createHash, randomBytes } from 'node:crypto';
import type { CreateInviteBody, CreatedInvite, Invite, InvitePreview, Member, Role, Workspace } from '@hop/shared';
import type { Database, Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { HopError, notFound } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { iso } from '../timestamps.js';
import { mayGrantRole, roleAtLeast } from '@hop/shared';
import type { Actor } from '../auth/actor.js';
import type { WorkspacesService } from './workspaces-service.js';
import type { SendInvite } from '../mail/invite-mailer.js';
import { afterCreated, createdKeyOf, pageOf, type PageQuery } from '../pagination.js';

/** Invites expire after 7 days (docs/api.md, Access). */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

interface InviteRow {
  id: string;
  workspace_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  expires_at: Date;
  created_at: Date;
}

const toInvite = (r: InviteRow): Invite => ({
  id: r.id,
  workspaceId: r.workspace_id,
  email: r.email,
  role: r.role,
  invitedBy: r.invited_by,
  expiresAt: iso(r.expires_at),
  createdAt: iso(r.created_at),
});

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  created_at: Date;
}

const toMember = (r: MemberRow): Member => ({ userId: r.user_id, email: r.email, name: r.name, role: r.role, joinedAt: iso(r.created_at) });

/** Members of a workspace, their roles, and the invites that add new ones. */
export function createMembersService(deps: {
  db: Database;
  clock: Clock;
  newId: IdGenerator;
  workspaces: WorkspacesService;
  acceptUrl: (token: string) => string;
  /** Sends the invite by e-mail (when SMTP_URL is set); failures are the sender's to report. */
  sendInvite?: SendInvite;
}) {
  const { db, clock, newId, workspaces } = deps;

  async function memberOrThrow(q: Queryable, workspaceId: string, userId: string): Promise<Member> {
    const [r] = await q.query<MemberRow>(
      `select m.user_id, u.email, u.name, m.role, m.created_at from memberships m join users u on u.id = m.user_id
       where m.workspace_id = $1 and m.user_id = $2 for update of m`,
      [workspaceId, userId],
    );
    if (!r) throw notFound('member');
    return toMember(r);
  }

  /** The workspace must keep at least one owner (docs/api.md, Access). Locks the owners while checking. */
  async function assertOtherOwner(q: Queryable, workspaceId: string, userId: string) {
    const owners = await q.query<{ user_id: string }>(
      `select user_id from memberships where workspace_id = $1 and role = 'owner' for update`,
      [workspaceId],
    );
    if (!owners.some((o) => o.user_id !== userId)) {
      throw new HopError('CONFLICT', 'the last owner cannot leave or be demoted; make someone else owner first', { reason: 'last_owner' });
    }
  }

  /**
   * Inside the caller's transaction: the user (an account of any age, or one being created by a
   * sign-up with the invite) joins the invite's workspace with its role, if the invite is live and
   * was sent to the user's e-mail (ignoring case). Answers the workspace's id.
   */
  async function claimInvite(tx: Queryable, userId: string, token: string): Promise<string> {
    const [inv] = await tx.query<InviteRow & { accepted_at: Date | null }>(
      'select * from invites where token_hash = $1 for update',
      [hashToken(token)],
    );
    if (!inv || inv.accepted_at) throw notFound('invite');
    if (inv.expires_at.getTime() <= clock.now().getTime()) throw new HopError('GONE', 'this invite has expired; ask for a new one');
    const [user] = await tx.query<{ email: string }>('select email from users where id = $1', [userId]);
    if (!user || user.email.toLowerCase() !== inv.email.toLowerCase()) {
      throw new HopError('FORBIDDEN', 'this invite was sent to another e-mail address', { reason: 'email_mismatch' });
    }
    await tx.query(
      `insert into memberships (workspace_id, user_id, role) values ($1, $2, $3)
       on conflict (workspace_id, user_id) do nothing`,
      [inv.workspace_id, userId, inv.role],
    );
    await tx.query('update invites set accepted_at = $2 where id = $1', [inv.id, clock.now()]);
    return inv.workspace_id;
  }

  return {
    /** The workspace's members, oldest first. */
    async list(workspaceId: string, q: PageQuery) {
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<MemberRow>(
        `select m.user_id, u.email, u.name, m.role, m.created_at from memberships m join users u on u.id = m.user_id
         where m.workspace_id = $1 and ($2::timestamptz is null or (m.created_at, m.user_id) > ($2::timestamptz, $3))
         order by m.created_at, m.user_id limit $4`,
        [workspaceId, t, id, q.limit + 1],
      );
      return pageOf(rows, q.limit, toMember, (r) => afterCreated({ created_at: r.created_at, id: r.user_id }));
    },

    async createInvite(actor: Actor, body: CreateInviteBody): Promise<CreatedInvite> {
      if (!mayGrantRole(actor.role, body.role)) {
        throw new HopError('FORBIDDEN', 'only owners can invite owners', { requiredRole: 'owner' });
      }
      const [existing] = await db.query(
        `select 1 from memberships m join users u on u.id = m.user_id where m.workspace_id = $1 and lower(u.email) = lower($2)`,
        [actor.workspaceId, body.email],
      );
      if (existing) throw new HopError('CONFLICT', `${body.email} is already a member`, { field: 'email' });
      const token = `hopinv_${randomBytes(24).toString('base64url')}`;
      const [row] = await db.query<InviteRow>(
        `insert into invites (id, workspace_id, email, role, token_hash, invited_by, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7) returning *`,
        [newId('inv'), actor.workspaceId, body.email, body.role, hashToken(token), actor.userId,
          new Date(clock.now().getTime() + INVITE_TTL_MS)],
      );
      const created = { ...toInvite(row), token, acceptUrl: deps.acceptUrl(token) };
      if (deps.sendInvite) {
        const [names] = await db.query<{ workspace: string; inviter: string | null }>(
          'select w.name as workspace, u.name as inviter from workspaces w left join users u on u.id = $2 where w.id = $1',
          [actor.workspaceId, actor.userId],
        );
        await deps.sendInvite({ invite: created, workspaceName: names?.workspace ?? actor.slug, inviterName: names?.inviter ?? null });
      }
      return created;
    },

    async listInvites(workspaceId: string, q: PageQuery) {
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<InviteRow>(
        `select * from invites where workspace_id = $1 and accepted_at is null and expires_at > $2
           and ($3::timestamptz is null or (created_at, id) > ($3::timestamptz, $4))
         order by created_at, id limit $5`,
        [workspaceId, clock.now(), t, id, q.limit + 1],
      );
      return pageOf(rows, q.limit, toInvite, afterCreated);
    },

    async deleteInvite(workspaceId: string, inviteId: string): Promise<Invite> {
      const [row] = await db.query<InviteRow>(
        'delete from invites where id = $1 and workspace_id = $2 and accepted_at is null returning *',
        [inviteId, workspaceId],
      );
      if (!row) throw notFound('invite');
      return toInvite(row);
    },

    claimInvite,

    /** An unaccepted, unexpired invite as its page shows it; NOT_FOUND or GONE otherwise. */
    async getInvite(token: string): Promise<InvitePreview> {
      const [row] = await db.query<{ workspace_name: string; inviter_name: string | null; email: string; role: Role; expires_at: Date; accepted_at: Date | null }>(
        `select w.name as workspace_name, u.name as inviter_name, i.email, i.role, i.expires_at, i.accepted_at
           from invites i join workspaces w on w.id = i.workspace_id left join users u on u.id = i.invited_by
          where i.token_hash = $1`,
        [hashToken(token)],
      );
      if (!row || row.accepted_at) throw notFound('invite');
      if (row.expires_at.getTime() <= clock.now().getTime()) throw new HopError('GONE', 'this invite has expired; ask for a new one');
      return { workspaceName: row.workspace_name, inviterName: row.inviter_name, email: row.email, role: row.role, expiresAt: iso(row.expires_at) };
    },

    /** The logged-in user whose e-mail matches (ignoring case) joins with the invited role. */
    async acceptInvite(userId: string, token: string): Promise<Workspace> {
      const workspaceId = await db.transaction((tx) => claimInvite(tx, userId, token));
      return workspaces.get(userId, workspaceId);
    },

    async update(workspaceId: string, userId: string, role: Role): Promise<Member> {
      return db.transaction(async (tx) => {
        const member = await memberOrThrow(tx, workspaceId, userId);
        if (member.role === 'owner' && role !== 'owner') await assertOtherOwner(tx, workspaceId, userId);
        await tx.query('update memberships set role = $3 where workspace_id = $1 and user_id = $2', [workspaceId, userId, role]);
        return { ...member, role };
      });
    },

    /** Anyone may leave; admins remove members and admins; only owners remove owners. */
    async delete(actor: Actor, userId: string): Promise<Member> {
      return db.transaction(async (tx) => {
        const member = await memberOrThrow(tx, actor.workspaceId, userId);
        if (userId !== actor.userId) {
          const needed: Role = member.role === 'owner' ? 'owner' : 'admin';
          if (!roleAtLeast(actor.role, needed)) {
            throw new HopError('FORBIDDEN', `removing a ${member.role} needs the ${needed} role`, { requiredRole: needed });
          }
        }
        if (member.role === 'owner') await assertOtherOwner(tx, actor.workspaceId, userId);
        await tx.query('delete from memberships where workspace_id = $1 and user_id = $2', [actor.workspaceId, userId]);
        // Keys act with their creator's membership; without it they would only answer 404, so drop them.
        await tx.query('delete from api_keys where workspace_id = $1 and user_id = $2', [actor.workspaceId, userId]);
        return member;
      });
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
