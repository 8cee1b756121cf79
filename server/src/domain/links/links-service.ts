import type { BulkCreateLinksBodySchema, Link, UpdateLinkBody } from '@hop/shared';
import { CreateLinkBodySchema, SMART_FIELDS } from '@hop/shared';
import type { z } from 'zod';
import type { Database, Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { HopError, invalid, notFound } from '../errors.js';
import { randomBase62, type IdGenerator } from '../ids.js';
import { hashPassword } from '../passwords.js';
import { roleAtLeast } from '../auth/credentials.js';
import type { Actor } from '../auth/actor.js';
import { applyUtm, hasUtm } from './utm.js';
import { LINK_COLUMNS, toLink, type LinkRow } from './link-row.js';
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
    // Members change only the links they made; admins and owners change every link.
    if (!roleAtLeast(actor.role, 'admin') && row.created_by !== actor.userId) {
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

  const insertParams = (actor: Actor, p: Prepared, id: string, domain: string, slug: string) => [
    id, actor.workspaceId, domain, slug, p.url, p.body.title ?? null, p.body.description ?? null, p.tags,
    p.body.expiresAt ?? null, p.body.expiredUrl ?? null, p.body.maxClicks ?? null, p.passwordHash, actor.userId,
    ...smartParams(p.body),
  ];

  const slugTaken = async (tx: Queryable, domain: string, slug: string) => new HopError('SLUG_ALREADY_EXISTS', `the slug "${slug}" is taken on ${domain}`, {
    field: 'slug', value: slug, suggestion: await checks.suggestSlug(tx, domain, slug),
  });

  /** Inserts one link (drawing a generated slug again on a collision); no event. */
  async function insertOne(tx: Queryable, actor: Actor, p: Prepared, domain: string): Promise<LinkRow> {
    for (let attempt = 0; ; attempt++) {
      const slug = p.body.slug ?? randomBase62(GENERATED_SLUG_LENGTH);
      const [row] = await tx.query<LinkRow>(
        `insert into links (id, workspace_id, domain, slug, url, title, description, tags, expires_at, expired_url,
           max_clicks, password_hash, created_by, rules, variants, ios, android, preview)
         values ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9, $10, $11, $12, $13, $14::text::jsonb, $15::text::jsonb, $16, $17,
           $18::text::jsonb)
         on conflict (domain, slug) do nothing returning ${LINK_COLUMNS}`,
        insertParams(actor, p, newId('lnk'), domain, slug),
      );
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
            `insert into links (id, workspace_id, domain, slug, url, title, description, tags, expires_at, expired_url,
               max_clicks, password_hash, created_by, rules, variants, ios, android, preview)
             select id, workspace_id, domain, slug, url, title, description, tags, expires_at, expired_url, max_clicks,
               password_hash, created_by, rules, variants, ios, android, preview
             from jsonb_to_recordset($1::text::jsonb) as x(ord int, id text, workspace_id text, domain text, slug text, url text,
               title text, description text, tags text[], expires_at timestamptz, expired_url text, max_clicks int,
               password_hash text, created_by text, rules jsonb, variants jsonb, ios text, android text, preview jsonb)
             order by ord
             on conflict (domain, slug) do nothing returning ${LINK_COLUMNS}`,
            [JSON.stringify(rows.map((r, ord) => {
              const [id, workspaceId, domain, slug, url, title, description, tags, expiresAt, expiredUrl, maxClicks, passwordHash, createdBy] =
                insertParams(actor, r.p, r.id, r.domain, r.slug);
              return {
                ord, id, workspace_id: workspaceId, domain, slug, url, title, description, tags, expires_at: expiresAt,
                expired_url: expiredUrl, max_clicks: maxClicks, password_hash: passwordHash, created_by: createdBy,
                rules: r.p.body.rules ?? null, variants: r.p.body.variants ?? null, ios: r.p.body.ios ?? null,
                android: r.p.body.android ?? null, preview: r.p.body.preview ?? null,
              };
            }))],
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
        if (body.url !== undefined || hasUtm(body)) next.url = applyUtm(body.url ?? row.url, body);
        if (body.slug !== undefined) next.slug = body.slug;
        if (body.domain !== undefined) next.domain = await checks.domain(tx, actor.workspaceId, body.domain);
        if (body.title !== undefined) next.title = body.title;
        if (body.description !== undefined) next.description = body.description;
        if (body.tags !== undefined) next.tags = [...new Set(body.tags)];
        if (body.expiresAt !== undefined) next.expires_at = body.expiresAt ? new Date(body.expiresAt) : null;
        if (body.expiredUrl !== undefined) next.expired_url = body.expiredUrl;
        if (body.maxClicks !== undefined) next.max_clicks = body.maxClicks;
        if (passwordHash !== undefined) next.password_hash = passwordHash;
        for (const f of SMART_FIELDS) if (body[f] !== undefined) (next as Record<string, unknown>)[f] = body[f];

        const changes = diffFields(row, next, body.password !== undefined);
        if (changes.length === 0) return { link: present(row), changes };
        if ((next.slug !== row.slug || next.domain !== row.domain)) {
          const [clash] = await tx.query('select 1 from links where domain = $1 and slug = $2 and id <> $3', [next.domain, next.slug, row.id]);
          if (clash) throw await slugTaken(tx, next.domain, next.slug);
        }
        const [updated] = await tx.query<LinkRow>(
          `update links set slug = $2, domain = $3, url = $4, title = $5, description = $6, tags = $7::text[],
             expires_at = $8, expired_url = $9, max_clicks = $10, password_hash = $11, rules = $12::text::jsonb,
             variants = $13::text::jsonb, ios = $14, android = $15, preview = $16::text::jsonb, updated_at = now(),
             -- A new expiry is a new chance to expire: link.expired goes out again for it.
             expired_at = case when expires_at is distinct from $8 then null else expired_at end
           where id = $1 returning ${LINK_COLUMNS}`,
          [row.id, next.slug, next.domain, next.url, next.title, next.description, next.tags, next.expires_at,
            next.expired_url, next.max_clicks, next.password_hash, ...smartParams(next)],
        );
        const link = present(updated);
        await deps.outbox?.emit(tx, { workspaceId: actor.workspaceId, type: 'link.updated', data: { link, changes } });
        return { link, changes };
      });
  }
}

const FIELD_NAMES: [keyof LinkRow, string][] = [
  ['url', 'url'], ['slug', 'slug'], ['domain', 'domain'], ['title', 'title'], ['description', 'description'],
  ['tags', 'tags'], ['expires_at', 'expiresAt'], ['expired_url', 'expiredUrl'], ['max_clicks', 'maxClicks'],
  ...SMART_FIELDS.map((f) => [f, f] as [keyof LinkRow, string]),
];

/** rules, variants, ios, android, preview as statement parameters: JSON text for jsonb, SQL null when unset. */
function smartParams(v: Partial<Record<(typeof SMART_FIELDS)[number], unknown>>): (string | null)[] {
  const json = (x: unknown) => (x == null ? null : JSON.stringify(x));
  return [json(v.rules), json(v.variants), (v.ios as string | null | undefined) ?? null, (v.android as string | null | undefined) ?? null, json(v.preview)];
}

/** Names (as on the wire) of the fields an update changed; `link.updated` carries them. */
function diffFields(before: LinkRow, after: LinkRow, passwordTouched: boolean): string[] {
  const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
  const changes = FIELD_NAMES.filter(([col]) => !same(before[col], after[col])).map(([, name]) => name);
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
