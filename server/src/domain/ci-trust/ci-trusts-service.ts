import { createHash } from 'node:crypto';
import { ACCESS_TOKEN_TYPE, type CiTrust, type CreateCiTrustBody, type Scope, type TokenExchangeResponse } from '@hop/shared';
import type { Database } from '../../db/database.js';
import type { Actor } from '../auth/actor.js';
import { requireHeldScopes, type Principal } from '../auth/credentials.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { randomBase62, type IdGenerator } from '../ids.js';
import { afterCreated, createdKeyOf, pageOf, type PageQuery } from '../pagination.js';
import { iso, isoOrNull } from '../timestamps.js';
import type { EventOutbox } from '../events/event-outbox.js';
import { jobClaims, specificity, unmetRequirement } from './ci-claims.js';
import { claimedIssuer, verifyIdToken } from './id-token-verifier.js';
import type { IssuerKeys } from './issuer-keys.js';
import { OidcRefusal } from './oidc-refusal.js';

/** An exchanged token lives 15 minutes: long enough for a job's Hop steps, short enough to leak little. */
export const CI_TOKEN_TTL_SECONDS = 15 * 60;
/** Recognisable in logs and secret scanners, like the other tokens. */
export const CI_TOKEN_PREFIX = 'hopci_';

interface TrustRow {
  id: string;
  workspace_id: string;
  issuer: string;
  repository: string;
  ref: string | null;
  environment: string | null;
  workflow: string | null;
  scopes: Scope[];
  created_by: string;
  created_at: Date;
  last_used_at: Date | null;
}

const toTrust = (r: TrustRow): CiTrust => ({
  id: r.id, workspaceId: r.workspace_id, issuer: r.issuer, repository: r.repository, ref: r.ref,
  environment: r.environment, workflow: r.workflow, scopes: r.scopes, createdBy: r.created_by,
  createdAt: iso(r.created_at), lastUsedAt: isoOrNull(r.last_used_at),
});

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * CI trusts (docs/ci.md): admins name the CI jobs they trust; a job exchanges its OIDC ID token
 * (RFC 8693) for an access token of 15 minutes with the trust's scopes in its workspace, acting
 * as the admin who added the trust. Every exchange is a `ci.token_exchanged` event.
 */
export function createCiTrustsService(deps: { db: Database; clock: Clock; newId: IdGenerator; outbox: EventOutbox; keys: IssuerKeys; audience: string }) {
  const { db, clock, newId, outbox, keys, audience } = deps;

  async function find(workspaceId: string, trustId: string): Promise<TrustRow> {
    const [row] = await db.query<TrustRow>('select * from ci_trusts where id = $1 and workspace_id = $2', [trustId, workspaceId]);
    if (!row) throw notFound('ci trust');
    return row;
  }

  /** The trusts a verified job meets, in the workspace it asked for; or the refusal that says why none. */
  async function matchTrust(issuer: string, job: ReturnType<typeof jobClaims>, workspace: string | undefined): Promise<TrustRow> {
    const candidates = await db.query<TrustRow & { slug: string }>(
      `select t.*, w.slug from ci_trusts t join workspaces w on w.id = t.workspace_id
       where t.issuer = $1 order by t.created_at, t.id`,
      [issuer],
    );
    const inWorkspace = workspace ? candidates.filter((t) => t.workspace_id === workspace || t.slug === workspace) : candidates;
    if (inWorkspace.length === 0) throw new OidcRefusal('workspace', `no trust of workspace ${workspace} names ${issuer}`);
    const reasons: OidcRefusal[] = [];
    const met = inWorkspace.filter((t) => {
      const why = unmetRequirement(t, job);
      if (why) reasons.push(why);
      return !why;
    });
    if (met.length === 0) {
      // The most telling reason: one from a trust of the same repository, if any.
      throw reasons.find((r) => r.check !== 'repository') ?? reasons[0];
    }
    const workspaces = new Set(met.map((t) => t.workspace_id));
    if (workspaces.size > 1) {
      throw new OidcRefusal('workspace', `trusts of ${workspaces.size} workspaces match this job: send workspace (an id or slug)`);
    }
    return met.reduce((best, t) => (specificity(t) > specificity(best) ? t : best));
  }

  return {
    async create(actor: Actor, body: CreateCiTrustBody & { issuer: string }): Promise<CiTrust> {
      const scopes = [...new Set(body.scopes)];
      requireHeldScopes(actor, scopes);
      const [row] = await db.query<TrustRow>(
        `insert into ci_trusts (id, workspace_id, issuer, repository, ref, environment, workflow, scopes, created_by, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9, $10) returning *`,
        [newId('cit'), actor.workspaceId, body.issuer, body.repository, body.ref ?? null, body.environment ?? null,
          body.workflow ?? null, scopes, actor.userId, clock.now()],
      );
      return toTrust(row);
    },

    async list(workspaceId: string, q: PageQuery) {
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<TrustRow>(
        `select * from ci_trusts where workspace_id = $1
           and ($2::timestamptz is null or (created_at, id) > ($2::timestamptz, $3))
         order by created_at, id limit $4`,
        [workspaceId, t, id, q.limit + 1],
      );
      return pageOf(rows, q.limit, toTrust, afterCreated);
    },

    get: async (workspaceId: string, trustId: string) => toTrust(await find(workspaceId, trustId)),

    /** Removes the trust; the tokens it gave go with it (on delete cascade). */
    async delete(workspaceId: string, trustId: string): Promise<CiTrust> {
      const row = await find(workspaceId, trustId);
      await db.query('delete from ci_trusts where id = $1', [trustId]);
      return toTrust(row);
    },

    /**
     * RFC 8693 with an OIDC ID token as the subject. Only issuers some trust names are ever
     * fetched from, so a token cannot send the server to an address of its choosing.
     */
    async exchange(input: { subjectToken: string; workspace?: string }): Promise<TokenExchangeResponse> {
      const { issuer, kid } = claimedIssuer(input.subjectToken);
      const [named] = await db.query('select 1 from ci_trusts where issuer = $1 limit 1', [issuer]);
      if (!named) throw new OidcRefusal('iss', `no CI trust names the issuer ${issuer}`);
      const payload = await verifyIdToken(input.subjectToken, { issuer, kid, audience, keys, clock });
      const job = jobClaims(payload);
      const trust = await matchTrust(issuer, job, input.workspace);
      const token = CI_TOKEN_PREFIX + randomBase62(43);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + CI_TOKEN_TTL_SECONDS * 1000);
      await db.transaction(async (tx) => {
        await tx.query(
          `insert into ci_tokens (token_hash, trust_id, workspace_id, user_id, scopes, created_at, expires_at)
           values ($1, $2, $3, $4, $5::text[], $6, $7)`,
          [hash(token), trust.id, trust.workspace_id, trust.created_by, trust.scopes, now, expiresAt],
        );
        await tx.query('update ci_trusts set last_used_at = $2, last_used_subject = $3 where id = $1', [trust.id, now, job.subject]);
        await outbox.emit(tx, {
          type: 'ci.token_exchanged', workspaceId: trust.workspace_id, at: now,
          data: {
            trustId: trust.id, issuer, subject: job.subject, repository: job.repository ?? trust.repository, ref: job.ref,
            environment: job.environment, workflow: job.workflows.at(-1) ?? null, runId: job.runId, scopes: trust.scopes,
            expiresAt: expiresAt.toISOString(),
          },
        });
      });
      return {
        access_token: token, issued_token_type: ACCESS_TOKEN_TYPE, token_type: 'Bearer', expires_in: CI_TOKEN_TTL_SECONDS,
        scope: trust.scopes.join(' '), workspace_id: trust.workspace_id,
      };
    },

    /** The principal behind an exchanged token, or null when it is unknown, expired or its trust removed. */
    async authenticate(token: string): Promise<Principal | null> {
      if (!token.startsWith(CI_TOKEN_PREFIX) || token.length > 100) return null;
      const [row] = await db.query<{ trust_id: string; workspace_id: string; user_id: string; scopes: Scope[] }>(
        'select trust_id, workspace_id, user_id, scopes from ci_tokens where token_hash = $1 and expires_at > $2',
        [hash(token), clock.now()],
      );
      if (!row) return null;
      return { kind: 'ciToken', userId: row.user_id, scopes: row.scopes, credentialId: row.trust_id, workspaceId: row.workspace_id };
    },
  };
}

export type CiTrustsService = ReturnType<typeof createCiTrustsService>;
