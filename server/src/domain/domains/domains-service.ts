import { VERIFICATION_PREFIX, type Domain } from '@hop/shared';
import type { Database, Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { HopError, notFound, validationError } from '../errors.js';
import { randomBase62, type IdGenerator } from '../ids.js';
import { iso, isoOrNull } from '../timestamps.js';
import type { TxtLookup } from './txt-lookup.js';
import { afterCreated, createdKeyOf, pageOf, type PageQuery } from '../pagination.js';

interface DomainRow {
  id: string;
  workspace_id: string;
  name: string;
  verification_value: string;
  verified_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, workspace_id, name, verification_value, verified_at, created_at';

const toDomain = (r: DomainRow): Domain => ({
  id: r.id,
  name: r.name,
  verified: r.verified_at != null,
  verification: { type: 'TXT', name: `${VERIFICATION_PREFIX}.${r.name}`, value: r.verification_value },
  verifiedAt: isoOrNull(r.verified_at),
  createdAt: iso(r.created_at),
});

/** An unverified claim lapses after 7 days: it no longer shows, and the name can be added afresh. */
const CLAIM_DAYS = 7;

/** Why a verification did not succeed: shown in the 400's message and `details.reason`. */
type VerifyFailure = 'record_missing' | 'value_mismatch' | 'lookup_failed';

/**
 * Custom short domains: a workspace adds a name, proves control with a TXT record, and can then
 * put links on it. A name is unique across the service (docs/api.md, Domains and tags).
 */
export function createDomainsService(deps: {
  db: Database;
  clock: Clock;
  newId: IdGenerator;
  lookupTxt: TxtLookup;
  /** Host names (no port) that are Hop itself: the default short domain and the API host. */
  reservedHosts: string[];
  /** Told after the set of domains changes, so this process's redirector reloads at once. */
  onChanged?: () => void;
}) {
  const { db, clock, newId, lookupTxt } = deps;
  const reserved = new Set(deps.reservedHosts.map((h) => h.toLowerCase()));
  const changed = () => deps.onChanged?.();
  /** Claims made before this moment have lapsed (a cut at query time, so no job is needed). */
  const lapsedBefore = () => new Date(clock.now().getTime() - CLAIM_DAYS * 86_400_000);
  const LIVE = '(verified_at is not null or created_at >= $LAPSE)';
  const live = (n: number) => LIVE.replace('$LAPSE', `$${n}`);

  async function load(q: Queryable, workspaceId: string, domainId: string, lock = ''): Promise<DomainRow> {
    const [row] = await q.query<DomainRow>(`select ${COLUMNS} from domains where id = $1 and workspace_id = $2 and ${live(3)} ${lock}`,
      [domainId, workspaceId, lapsedBefore()]);
    if (!row) throw notFound('domain');
    return row;
  }

  function verificationFailed(row: DomainRow, reason: VerifyFailure, message: string, found: string[] = []) {
    return new HopError('VALIDATION_ERROR', message, {
      issues: [{ path: 'verification', message }],
      reason,
      expected: toDomain(row).verification,
      found,
    });
  }

  return {
    async list(workspaceId: string, q: PageQuery) {
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<DomainRow>(
        `select ${COLUMNS} from domains where workspace_id = $1 and ${live(5)}
           and ($2::timestamptz is null or (created_at, id) > ($2::timestamptz, $3))
         order by created_at, id limit $4`,
        [workspaceId, t, id, q.limit + 1, lapsedBefore()],
      );
      return pageOf(rows, q.limit, toDomain, afterCreated);
    },

    /**
     * A claim on a name. Whether another workspace claimed it, or even verified it, is never
     * revealed here: only this workspace's own claim of the name answers 409.
     */
    async add(workspaceId: string, name: string): Promise<Domain> {
      if (reserved.has(name)) throw validationError('name', 'is the service\'s own domain');
      const row = await db.transaction(async (tx) => {
        // This workspace's own lapsed claim gives way to the new one (with a new value).
        await tx.query(`delete from domains where workspace_id = $1 and name = $2 and not ${live(3)}`, [workspaceId, name, lapsedBefore()]);
        const [inserted] = await tx.query<DomainRow>(
          `insert into domains (id, workspace_id, name, verification_value, created_at) values ($1, $2, $3, $4, $5)
           on conflict (workspace_id, name) do nothing returning ${COLUMNS}`,
          [newId('dom'), workspaceId, name, `hop-verify=${randomBase62(32)}`, clock.now()],
        );
        return inserted;
      });
      if (!row) throw new HopError('CONFLICT', `${name} is already added to this workspace`, { field: 'name', value: name });
      changed();
      return toDomain(row);
    },

    /** Checks the TXT record; a verified domain stays verified without another lookup. */
    async verify(workspaceId: string, domainId: string): Promise<Domain> {
      const row = await load(db, workspaceId, domainId);
      if (row.verified_at) return toDomain(row);
      const recordName = `${VERIFICATION_PREFIX}.${row.name}`;
      let found: string[];
      try {
        found = await lookupTxt(recordName);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        throw verificationFailed(row, 'lookup_failed', `the DNS lookup of TXT ${recordName} failed (${code}); try again later`);
      }
      if (found.length === 0) {
        throw verificationFailed(row, 'record_missing', `no TXT record at ${recordName}: add one with the value ${row.verification_value}`);
      }
      if (!found.some((v) => v.trim() === row.verification_value)) {
        throw verificationFailed(row, 'value_mismatch',
          `the TXT record at ${recordName} holds ${found.map((v) => JSON.stringify(v)).join(', ')}, not ${row.verification_value}`, found);
      }
      // The first to verify owns the name; the other workspaces' claims go in the same transaction.
      // Two verifying at once: the unique index on verified names lets only one commit.
      const updated = await db.transaction(async (tx) => {
        const [taken] = await tx.query('select 1 from domains where name = $1 and verified_at is not null and id <> $2', [row.name, row.id]);
        if (taken) return 'taken' as const;
        const [u] = await tx.query<DomainRow>(
          `update domains set verified_at = coalesce(verified_at, $2) where id = $1 returning ${COLUMNS}`,
          [row.id, clock.now()],
        );
        if (u) await tx.query('delete from domains where name = $1 and id <> $2 and verified_at is null', [row.name, row.id]);
        return u;
      }).catch((err: { code?: string }) => {
        if (err.code === '23505') return 'taken' as const;
        throw err;
      });
      // Only someone who controls the name's DNS learns that another workspace holds it.
      if (updated === 'taken') throw new HopError('CONFLICT', `${row.name} is verified by another workspace; its DNS owner can ask support to move it`, { field: 'name', value: row.name });
      if (!updated) throw notFound('domain');
      changed();
      return toDomain(updated);
    },

    /** Refused (409) while links use the domain: removing it would break their short URLs. */
    async delete(workspaceId: string, domainId: string): Promise<Domain> {
      const domain = await db.transaction(async (tx) => {
        // The lock keeps a link from being created on the domain between the count and the delete.
        const row = await load(tx, workspaceId, domainId, 'for update');
        const [{ n }] = await tx.query<{ n: number }>('select count(*)::int as n from links where domain = $1', [row.name]);
        if (n > 0) {
          throw new HopError('CONFLICT', `${row.name} is used by ${n} link${n === 1 ? '' : 's'}: delete them or move them to another domain first`,
            { reason: 'domain_in_use', linkCount: n });
        }
        await tx.query('delete from domains where id = $1', [row.id]);
        return toDomain(row);
      });
      changed();
      return domain;
    },

    /**
     * Whether `name` is a verified domain of the workspace. Inside a link's transaction it takes a
     * share lock on the domain row, so a concurrent removal waits and then counts that link.
     */
    async isVerifiedIn(q: Queryable, workspaceId: string, name: string): Promise<boolean> {
      const rows = await q.query('select 1 from domains where workspace_id = $1 and name = $2 and verified_at is not null for key share', [workspaceId, name]);
      return rows.length > 0;
    },

    /** Whether `host` is any workspace's verified domain: links may not point at one (loops). */
    async isVerifiedAnywhere(host: string): Promise<boolean> {
      const rows = await db.query('select 1 from domains where name = $1 and verified_at is not null', [host]);
      return rows.length > 0;
    },

    /** Every verified name: the redirector's set of hosts it serves besides the default. */
    async verifiedNames(): Promise<string[]> {
      const rows = await db.query<{ name: string }>('select name from domains where verified_at is not null');
      return rows.map((r) => r.name);
    },
  };
}

export type DomainsService = ReturnType<typeof createDomainsService>;
