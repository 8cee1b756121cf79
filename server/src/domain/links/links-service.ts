import type { BulkCreateLinksBodySchema, Link, UpdateLinkBody } from '@hop/shared';
import { CreateLinkBodySchema, mayChange, STORED_LINK_FIELDS } from '@hop/shared';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { HopError, invalid, notFound } from '../errors.js';
import { rejectNul } from '../nul-bytes.js';
import { randomBase62, type IdGenerator } from '../ids.js';
import { hashPassword } from '../passwords.js';
import type { Actor } from '../auth/actor.js';
import { applyUtm, hasUtm } from './utm.js';
import { LINK_COLUMNS, toLink, type LinkRow } from './link-row.js';
import { FIELD_COLUMNS, columnParam, fieldAssignments, fieldPlaceholders, fieldRecordTypes } from './link-columns.js';
import { buildListQuery } from './link-list-query.js';
import { canonicalJson } from './canonical-json.js';
import type { EventOutbox } from '../events/event-outbox.js';
import { createLinkChecks, type LinkDomains, type LoopCheck } from './link-checks.js';

type CreateInput = z.output<typeof CreateLinkBodySchema>;
type UpdateInput = Partial<CreateInput>;

export interface LinksConfig {
  shortDomain: string;
  shortScheme: 'http' | 'https';
  dashboardUrl: string;
  /** Hosts (host[:port]) that are Hop itself: a link may not point at them (no loops). */
  ownHosts: string[];
}

const GENERATED_SLUG_LENGTH = 7;

export function createLinksService(deps: {
  db: Database;
  clock: Clock;
  newId: IdGenerator;
  config: LinksConfig;
  domains?: LinkDomains;
  /** Told after a link's change commits, so this process's redirect cache never serves the old one. */
  onLinkChanged?: (linkId: string) => void;
  /** link.created, link.updated and link.deleted go out through it, in the change's transaction. */
  outbox?: EventOutbox;
}) {
  const { db, clock, newId, config } = deps;
  const changed = (linkId: string) => deps.onLinkChanged?.(linkId);
  const checks = createLinkChecks({ config, clock, domains: deps.domains });
  // Custom domains are served over https whatever the default short domain's scheme is.
  const shortUrl = (domain: string, slug: string) => `${domain === config.shortDomain ? config.shortScheme : 'https'}://${domain}/${slug}`;
  const present = (r: LinkRow) => toLink(r, shortUrl, clock.now());

  async function loadForWrite(q: Queryable, actor: Actor, linkId: string): Promise<LinkRow> {
    const [row] = await q.query<LinkRow>(
      `select ${LINK_COLUMNS} from links where id = $1 and workspace_id = $2 for update`,
      [linkId, actor.workspaceId],
    );
    if (!row) throw notFound('link');
    if (!mayChange(actor, { createdBy: row.created_by })) {
      throw new HopError('FORBIDDEN', 'members may change only the links they created', { requiredRole: 'admin' });
    }
    return row;
  }

  /** What a link needs before its transaction: checks that read no row of it, the final URL, the hash. */
  interface Prepared {
    body: CreateInput;
    url: string;
    passwordHash: string | null;
    tags: string[];
  }

  async function prepare(actor: Actor, body: CreateInput, loops?: LoopCheck): Promise<Prepared> {
    await checks.fields(actor, body, loops);
    return {
      body,
      url: applyUtm(body.url, body),
      passwordHash: body.password ? await hashPassword(body.password, 'links') : null,
      tags: [...new Set(body.tags ?? [])],
    };
  }

  /** A new link's stored fields by column: the body's, with the URL, tags, domain and slug worked out. */
  const newColumns = (p: Prepared, domain: string, slug: string): Record<string, unknown> => {
    const worked: Record<string, unknown> = { url: p.url, tags: p.tags, domain, slug };
    return Object.fromEntries(STORED_LINK_FIELDS.map((f) => [f.column, f.name in worked ? worked[f.name] : p.body[f.name] ?? null]));
  };

  const INSERT_SQL = `insert into links (id, workspace_id, ${FIELD_COLUMNS.join(', ')}, password_hash, created_by)
    values ($1, $2, ${fieldPlaceholders(3).join(', ')}, $${FIELD_COLUMNS.length + 3}, $${FIELD_COLUMNS.length + 4})
    on conflict (domain, slug) do nothing returning ${LINK_COLUMNS}`;

  const slugTaken = async (tx: Queryable, domain: string, slug: string) => {
    const suggestion = await checks.suggestSlug(tx, domain, slug);
    return new HopError('SLUG_ALREADY_EXISTS', `the slug "${slug}" is taken on ${domain}; "${suggestion}" is free`, { field: 'slug', value: slug, suggestion });
  };

  /** Inserts one link (drawing a generated slug again on a collision); no event. */
  async function insertOne(tx: Queryable, actor: Actor, p: Prepared, domain: string): Promise<LinkRow> {
    for (let attempt = 0; ; attempt++) {
      const slug = p.body.slug ?? randomBase62(GENERATED_SLUG_LENGTH);
      const columns = newColumns(p, domain, slug);
      const [row] = await tx.query<LinkRow>(INSERT_SQL, [
        newId('lnk'), actor.workspaceId, ...STORED_LINK_FIELDS.map((f) => columnParam(f.kind, columns[f.column])), p.passwordHash, actor.userId,
      ]);
      if (row) return row;
      if (p.body.slug) throw await slugTaken(tx, domain, slug);
      // A generated slug collided (about one in 3.5e12 per link): draw again.
      if (attempt >= 5) throw new Error('could not generate a free slug');
    }
  }

  async function create(actor: Actor, body: CreateInput): Promise<Link> {
    const p = await prepare(actor, body);
    // One transaction, so that a custom domain stays verified and present until the link is in.
    return db.transaction(async (tx) => {
      const domain = await checks.domain(tx, actor.workspaceId, body.domain);
      const link = present(await insertOne(tx, actor, p, domain));
      await deps.outbox?.emit(tx, { workspaceId: actor.workspaceId, type: 'link.created', data: { link } });
      return link;
    });
  }

  /** One element's outcome; a failure holds its HopError, which the API layer writes as an error body. */
  type BulkResult = { index: number; success: true; data: Link } | { index: number; success: false; error: HopError };
  const failure = (index: number, err: HopError): BulkResult => ({ index, success: false, error: err });

  /**
   * Creates each link on its own: one bad element fails alone, in input order (docs/api.md, Wire conventions). The
   * good ones go in together: one transaction, one multi-row insert and one batch of events,
   * instead of a transaction of six statements per link.
   */
  async function bulkCreate(actor: Actor, items: z.output<typeof BulkCreateLinksBodySchema>): Promise<BulkResult[]> {
    const results: BulkResult[] = new Array(items.length);
    const loops = memoize(checks.isLoopHost);
    const ready: { index: number; p: Prepared }[] = [];
    for (const [index, item] of items.entries()) {
      const parsed = CreateLinkBodySchema.safeParse(item);
      try {
        rejectNul(item, []);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
          throw invalid(issues.map((i) => ({ ...i, path: i.path || 'body' })));
        }
        ready.push({ index, p: await prepare(actor, parsed.data, loops) });
      } catch (err) {
        if (!(err instanceof HopError)) throw err;
        results[index] = failure(index, err);
      }
    }
    if (ready.length > 0) {
      await db.transaction(async (tx) => {
        const domains = new Map<string, Promise<string>>();
        const rows: { index: number; p: Prepared; id: string; domain: string; slug: string }[] = [];
        const claimed = new Set<string>();
        const later: { index: number; p: Prepared; domain: string }[] = [];
        for (const { index, p } of ready) {
          const key = p.body.domain ?? '';
          if (!domains.has(key)) domains.set(key, checks.domain(tx, actor.workspaceId, p.body.domain));
          let domain: string;
          try {
            domain = await domains.get(key)!;
          } catch (err) {
            if (!(err instanceof HopError)) throw err;
            results[index] = failure(index, err);
            continue;
          }
          const slug = p.body.slug ?? randomBase62(GENERATED_SLUG_LENGTH);
          // A slug asked for twice in the batch: the first asks first; the later one is told it
          // is taken once the first is in, as it would have been one request at a time.
          if (claimed.has(`${domain}/${slug}`)) later.push({ index, p, domain });
          else {
            claimed.add(`${domain}/${slug}`);
            rows.push({ index, p, id: '', domain, slug });
          }
        }
        // Ids sorted before they are handed out in input order: the batch shares one creation
        // time, and its ids keep it in input order within that time, as one request at a time would.
        const ids = rows.map(() => newId('lnk')).sort();
        rows.forEach((r, i) => (r.id = ids[i]));
        const inserted = new Map<string, LinkRow>();
        if (rows.length > 0) {
          const inserts = await tx.query<LinkRow>(
            // Every link of the batch carries the batch's real creation time (a later link never
            // sorts before it, and polling with createdAfter misses none). The rows go as one JSON text
            // ($1::text: postgres.js would encode a string typed jsonb again).
            `insert into links (id, workspace_id, ${FIELD_COLUMNS.join(', ')}, password_hash, created_by)
             select id, workspace_id, ${FIELD_COLUMNS.join(', ')}, password_hash, created_by
             from jsonb_to_recordset($1::text::jsonb)
               as x(ord int, id text, workspace_id text, ${fieldRecordTypes().join(', ')}, password_hash text, created_by text)
             order by ord
             on conflict (domain, slug) do nothing returning ${LINK_COLUMNS}`,
            [JSON.stringify(rows.map((r, ord) => ({
              ord, id: r.id, workspace_id: actor.workspaceId, ...newColumns(r.p, r.domain, r.slug),
              password_hash: r.p.passwordHash, created_by: actor.userId,
            })))],
          );
          for (const row of inserts) inserted.set(row.id, row);
        }
        // Not inserted: a slug taken already (or by an earlier element), or a generated slug that
        // collided, which is drawn again.
        for (const r of [...rows.filter((r) => !inserted.has(r.id)), ...later]) {
          try {
            const row = await insertOne(tx, actor, r.p, r.domain);
            inserted.set(row.id, row);
            results[r.index] = { index: r.index, success: true, data: present(row) };
          } catch (err) {
            if (!(err instanceof HopError)) throw err;
            results[r.index] = failure(r.index, err);
          }
        }
        for (const r of rows) {
          const row = inserted.get(r.id);
          if (row) results[r.index] = { index: r.index, success: true, data: present(row) };
        }
        const created = results.filter((r): r is Extract<BulkResult, { success: true }> => r?.success === true);
        await deps.outbox?.emitMany(tx, created.map((r) => ({ workspaceId: actor.workspaceId, type: 'link.created' as const, data: { link: r.data } })));
      });
    }
    return results;
  }

  return {
    create,
    bulkCreate,

    async get(workspaceId: string, linkId: string): Promise<Link> {
      const [row] = await db.query<LinkRow>(`select ${LINK_COLUMNS} from links where id = $1 and workspace_id = $2`, [linkId, workspaceId]);
      if (!row) throw notFound('link');
      return present(row);
    },

    /** The workspace of a link, for routes that name only the link. */
    async workspaceOf(linkId: string): Promise<string | null> {
      const [row] = await db.query<{ workspace_id: string }>('select workspace_id from links where id = $1', [linkId]);
      return row?.workspace_id ?? null;
    },

    async list(workspaceId: string, query: Parameters<typeof buildListQuery>[1]) {
      const q = buildListQuery(workspaceId, query, LINK_COLUMNS);
      const rows = await db.query<LinkRow>(q.sql, q.params);
      const page = rows.slice(0, query.limit);
      const nextCursor = rows.length > query.limit ? q.nextCursor(page[page.length - 1], q.offset) : null;
      return { data: page.map(present), pagination: { nextCursor, limit: query.limit } };
    },

    async update(actor: Actor, linkId: string, body: UpdateInput): Promise<{ link: Link; changes: string[] }> {
      const result = await updateInTransaction(actor, linkId, body);
      changed(linkId);
      return result;
    },

    async delete(actor: Actor, linkId: string): Promise<Link> {
      const link = await db.transaction(async (tx) => {
        const row = await loadForWrite(tx, actor, linkId);
        await tx.query('delete from links where id = $1', [row.id]);
        const deleted = present(row);
        await deps.outbox?.emit(tx, { workspaceId: actor.workspaceId, type: 'link.deleted', data: { link: deleted } });
        return deleted;
      });
      changed(linkId);
      return link;
    },
  };

  async function updateInTransaction(actor: Actor, linkId: string, body: UpdateInput): Promise<{ link: Link; changes: string[] }> {
      await checks.fields(actor, body);
      const passwordHash = body.password ? await hashPassword(body.password, 'links') : body.password;
      return db.transaction(async (tx) => {
        const row = await loadForWrite(tx, actor, linkId);
        const next = { ...row };
        const columns = next as unknown as Record<string, unknown>;
        for (const f of STORED_LINK_FIELDS) {
          const v = body[f.name];
          if (v === undefined || f.name === 'url' || f.name === 'domain') continue;
          columns[f.column] = f.kind === 'time' ? (v ? new Date(v as string) : null) : f.kind === 'tags' ? [...new Set(v as string[])] : v;
        }
        if (body.url !== undefined || hasUtm(body)) next.url = applyUtm(body.url ?? row.url, body);
        if (body.domain !== undefined) next.domain = await checks.domain(tx, actor.workspaceId, body.domain);
        if (passwordHash !== undefined) next.password_hash = passwordHash;

        const changes = diffFields(row, next, body.password !== undefined);
        if (changes.length === 0) return { link: present(row), changes };
        if ((next.slug !== row.slug || next.domain !== row.domain)) {
          const [clash] = await tx.query('select 1 from links where domain = $1 and slug = $2 and id <> $3', [next.domain, next.slug, row.id]);
          if (clash) throw await slugTaken(tx, next.domain, next.slug);
        }
        const [updated] = await tx.query<LinkRow>(UPDATE_SQL, [
          row.id, ...STORED_LINK_FIELDS.map((f) => columnParam(f.kind, columns[f.column])), next.password_hash,
        ]);
        const link = present(updated);
        await deps.outbox?.emit(tx, { workspaceId: actor.workspaceId, type: 'link.updated', data: { link, changes } });
        return { link, changes };
      });
  }
}

const EXPIRES_PARAM = `$${STORED_LINK_FIELDS.findIndex((f) => f.column === 'expires_at') + 2}`;
const UPDATE_SQL = `update links set ${fieldAssignments(2).join(', ')}, password_hash = $${FIELD_COLUMNS.length + 2}, updated_at = now(),
    -- A new expiry is a new chance to expire: link.expired goes out again for it.
    expired_at = case when expires_at is distinct from ${EXPIRES_PARAM} then null else expired_at end
  where id = $1 returning ${LINK_COLUMNS}`;

/** Names (as on the wire) of the fields an update changed; `link.updated` carries them. */
function diffFields(before: LinkRow, after: LinkRow, passwordTouched: boolean): string[] {
  const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
  const [b, a] = [before, after] as unknown as Record<string, unknown>[];
  const changes: string[] = STORED_LINK_FIELDS.filter((f) => !same(b[f.column], a[f.column])).map((f) => f.name);
  if (passwordTouched && before.password_hash !== after.password_hash) changes.push('password');
  return changes;
}

/** Calls `fn` once per key (for the length of one request). */
function memoize<T>(fn: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    let value = seen.get(key);
    if (!value) seen.set(key, (value = fn(key)));
    return value;
  };
}

export type LinksService = ReturnType<typeof createLinksService>;
export type { LinkDomains, UpdateLinkBody };
