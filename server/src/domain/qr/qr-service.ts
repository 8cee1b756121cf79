import { z } from 'zod';
import { mayChange, type QrAnalytics, type QrCode } from '@hop/shared';
import type { Database, Queryable } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { HopError, notFound, validationError } from '../errors.js';
import { randomBase62, type IdGenerator } from '../ids.js';
import { PLAN_LIMITS } from '../plans/plan-limits.js';
import { resolveRange } from '../analytics/analytics-range.js';
import type { Actor } from '../auth/actor.js';
import type { Membership } from '../workspaces/workspaces-service.js';
import { prepareLogo, renderQr } from './qr-render.js';
import { resolveQrOptions, type CreateQrInput } from './qr-options.js';
import { createRenderCache, type CachedRender } from './render-cache.js';
import { cursorCodec, CursorIdSchema, pageOf, type PageQuery } from '../pagination.js';

/** QR codes list newest first, by id (ids sort by creation). */
const qrCursor = cursorCodec(z.strictObject({ id: CursorIdSchema }));

export interface QrConfig {
  baseUrl: string;
  shortDomain: string;
  shortScheme: 'http' | 'https';
}

/** Fetches a logo URL under the address rules (see domain/net/safe-fetch.ts). */
export type LogoFetcher = (url: string) => Promise<Buffer>;

interface QrRow {
  id: string;
  workspace_id: string;
  link_id: string;
  code: string;
  scan_url: string;
  format: QrCode['format'];
  size: number;
  error_correction: QrCode['errorCorrection'];
  foreground_color: string;
  background_color: string;
  logo_url: string | null;
  logo_size: number | null;
  created_by: string | null;
  created_at: Date;
}

const COLUMNS = `id, workspace_id, link_id, code, scan_url, format, size, error_correction, foreground_color,
  background_color, logo_url, logo_size, created_by, created_at`;
const CODE_LENGTH = 8;
const HOUR_MS = 3_600_000;

/** Where a scan of `/q/{code}` goes: the link's current domain and slug. */
export interface QrTarget {
  qrId: string;
  linkId: string;
  domain: string;
  slug: string;
}

/**
 * QR codes of links (docs/api.md, QR codes): options, quota, logo, render once at creation, the public
 * download, and scan analytics read from the clicks of source `qr`.
 */
export function createQrService(deps: {
  db: Database;
  clock: Clock;
  newId: IdGenerator;
  config: QrConfig;
  fetchLogo: LogoFetcher;
  /** Told when a code is deleted, so this process stops resolving it at once. */
  onDeleted?: (linkId: string) => void;
}) {
  const { db, clock, newId, config } = deps;
  const renders = createRenderCache();
  const scheme = (domain: string) => (domain === config.shortDomain ? config.shortScheme : 'https');
  const present = (r: QrRow): QrCode => ({
    id: r.id,
    linkId: r.link_id,
    publicUrl: `${config.baseUrl}/v1/qr/${r.id}/download`,
    scanUrl: r.scan_url,
    format: r.format,
    size: r.size,
    errorCorrection: r.error_correction,
    foregroundColor: r.foreground_color,
    backgroundColor: r.background_color,
    logoUrl: r.logo_url,
    logoSize: r.logo_size,
    createdBy: r.created_by,
    createdAt: r.created_at.toISOString(),
  });

  /** Creations in the last hour, counted in the database so every process shares the quota (docs/api.md, Limits). */
  async function checkQuota(q: Queryable, ws: Pick<Membership, 'workspaceId' | 'plan'>) {
    const limit = PLAN_LIMITS[ws.plan].qrPerHour;
    if (limit === null) return;
    const now = clock.now().getTime();
    const [r] = await q.query<{ n: number; oldest: Date | null }>(
      'select count(*)::int as n, min(created_at) as oldest from qr_codes where workspace_id = $1 and created_at > $2',
      [ws.workspaceId, new Date(now - HOUR_MS)],
    );
    if (r.n < limit) return;
    const resetAt = new Date((r.oldest?.getTime() ?? now) + HOUR_MS);
    throw new HopError('RATE_LIMIT_EXCEEDED', `the ${ws.plan} plan creates at most ${limit} QR codes an hour; the window resets at ${resetAt.toISOString()}. ` +
      `The server's operator can raise this limit by changing the workspace's plan`, {
      limit,
      window: '1h',
      resetAt: resetAt.toISOString(),
    });
  }

  /** What is left of the hour's QR quota (GET .../usage); all null on plans without one. */
  async function quota(ws: Pick<Membership, 'workspaceId' | 'plan'>) {
    const limit = PLAN_LIMITS[ws.plan].qrPerHour;
    if (limit === null) return { limit: null, remaining: null, resetAt: null };
    const now = clock.now().getTime();
    const [r] = await db.query<{ n: number; oldest: Date | null }>(
      'select count(*)::int as n, min(created_at) as oldest from qr_codes where workspace_id = $1 and created_at > $2',
      [ws.workspaceId, new Date(now - HOUR_MS)],
    );
    // A sliding hour: the quota grows back as the oldest creation of the hour ages out.
    return { limit, remaining: Math.max(0, limit - r.n), resetAt: new Date((r.oldest?.getTime() ?? now) + HOUR_MS).toISOString() };
  }

  async function loadLogo(url: string): Promise<Buffer> {
    const logo = await prepareLogo(await deps.fetchLogo(url));
    if (typeof logo === 'string') throw validationError('logoUrl', logo);
    return logo;
  }

  async function find(workspaceId: string, qrId: string): Promise<QrRow> {
    const [row] = await db.query<QrRow>(
      `select ${COLUMNS} from qr_codes where id = $1 and workspace_id = $2 and deleted_at is null`,
      [qrId, workspaceId],
    );
    if (!row) throw notFound('qr code');
    return row;
  }

  return {
    quota,
    /** The workspace a live QR code belongs to, so routes can check membership (null: no such code). */
    async workspaceOf(qrId: string): Promise<string | null> {
      const [r] = await db.query<{ workspace_id: string }>('select workspace_id from qr_codes where id = $1 and deleted_at is null', [qrId]);
      return r?.workspace_id ?? null;
    },

    async create(actor: Actor, linkId: string, body: CreateQrInput): Promise<QrCode> {
      const options = resolveQrOptions(body);
      const [link] = await db.query<{ domain: string }>('select domain from links where id = $1 and workspace_id = $2', [linkId, actor.workspaceId]);
      if (!link) throw notFound('link');
      // Fail fast before fetching and rendering; checked again under the lock below.
      await checkQuota(db, actor);
      const logo = options.logoUrl ? await loadLogo(options.logoUrl) : null;
      const code = randomBase62(CODE_LENGTH);
      const scanUrl = `${scheme(link.domain)}://${link.domain}/q/${code}`;
      const rendered = await renderQr({ ...options, text: scanUrl, logo });
      const row = await db.transaction(async (tx) => {
        // One creator at a time per workspace, so concurrent requests cannot overshoot the quota.
        await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`qr-quota:${actor.workspaceId}`]);
        await checkQuota(tx, actor);
        const [r] = await tx.query<QrRow>(
          `insert into qr_codes (id, workspace_id, link_id, code, scan_url, format, size, error_correction, foreground_color,
             background_color, logo_url, logo_size, content_type, image, created_by, created_at)
           select $1, $2, l.id, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::bytea, $15, $16
           from links l where l.id = $3 and l.workspace_id = $2
           returning ${COLUMNS}`,
          [newId('qr'), actor.workspaceId, linkId, code, scanUrl, options.format, options.size, options.errorCorrection,
            options.foregroundColor, options.backgroundColor, options.logoUrl, options.logoSize, rendered.contentType,
            rendered.bytes, actor.userId, clock.now()],
        );
        if (!r) throw notFound('link');
        return r;
      });
      return present(row);
    },

    get: async (workspaceId: string, qrId: string) => present(await find(workspaceId, qrId)),

    async list(workspaceId: string, linkId: string, query: PageQuery) {
      const [link] = await db.query('select 1 from links where id = $1 and workspace_id = $2', [linkId, workspaceId]);
      if (!link) throw notFound('link');
      const after = query.cursor ? qrCursor.decode(query.cursor).id : null;
      const rows = await db.query<QrRow>(
        `select ${COLUMNS} from qr_codes where link_id = $1 and workspace_id = $2 and deleted_at is null
           and ($3::text is null or id < $3) order by id desc limit $4`,
        [linkId, workspaceId, after, query.limit + 1],
      );
      return pageOf(rows, query.limit, present, (last) => qrCursor.encode({ id: last.id }));
    },

    /** Deletes a code: it stops resolving and downloading. Members delete only the codes they made. */
    async delete(actor: Actor, qrId: string): Promise<QrCode> {
      const row = await find(actor.workspaceId, qrId);
      if (!mayChange(actor, { createdBy: row.created_by })) {
        throw new HopError('FORBIDDEN', 'members may delete only the QR codes they created', { requiredRole: 'admin' });
      }
      await db.query('update qr_codes set deleted_at = $2, image = null where id = $1 and deleted_at is null', [qrId, clock.now()]);
      renders.invalidateLink(row.link_id);
      deps.onDeleted?.(row.link_id);
      return present(row);
    },

    /** The stored render with the link's slug for a file name; null when there is no such live code. */
    async download(qrId: string): Promise<CachedRender | null> {
      const hit = renders.get(qrId);
      if (hit) return hit;
      const [r] = await db.query<{ link_id: string; slug: string; format: string; content_type: string; image: Uint8Array }>(
        `select q.link_id, l.slug, q.format, q.content_type, q.image from qr_codes q join links l on l.id = q.link_id
         where q.id = $1 and q.deleted_at is null and q.image is not null`,
        [qrId],
      );
      if (!r) return null;
      const render: CachedRender = {
        linkId: r.link_id,
        bytes: Buffer.from(r.image.buffer, r.image.byteOffset, r.image.byteLength),
        contentType: r.content_type,
        filename: `${r.slug}.${r.format}`,
      };
      renders.set(qrId, render);
      return render;
    },

    /** Where `/q/{code}` leads now (the link's current domain and slug); null for unknown or deleted codes. */
    async findTarget(code: string): Promise<QrTarget | null> {
      const [r] = await db.query<{ id: string; link_id: string; domain: string; slug: string }>(
        `select q.id, q.link_id, l.domain, l.slug from qr_codes q join links l on l.id = q.link_id
         where q.code = $1 and q.deleted_at is null`,
        [code],
      );
      return r ? { qrId: r.id, linkId: r.link_id, domain: r.domain, slug: r.slug } : null;
    },

    /** Another process changed a link or deleted a code: drop what this one keeps of it. */
    linkChanged: (linkId: string) => renders.invalidateLink(linkId),

    async getAnalytics(ws: Pick<Membership, 'workspaceId' | 'plan'>, qrId: string, q: { days?: number }): Promise<QrAnalytics> {
      await find(ws.workspaceId, qrId);
      const range = resolveRange({ days: q.days }, clock.now(), PLAN_LIMITS[ws.plan].clickRetentionDays);
      const window = [qrId, `${range.start}T00:00:00.000Z`, new Date(Date.parse(`${range.end}T00:00:00.000Z`) + 86_400_000).toISOString()];
      const scope = 'qr_id = $1 and not is_bot and clicked_at >= $2::timestamptz and clicked_at < $3::timestamptz';
      // Reads every scan of the range from the raw log: a busy code's can pass the planner's JIT
      // threshold, so as a report (Database.report).
      const days = await db.report<{ day: string; scans: number; uniques: number }>(
        `select to_char(clicked_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as scans,
           count(distinct visitor_hash)::int as uniques
         from clicks where ${scope} group by 1`,
        window,
      );
      const countries = await db.report<{ country: string | null; scans: number }>(
        `select country, count(*)::int as scans from clicks where ${scope} group by country order by scans desc, country`,
        window,
      );
      const perDay = new Map(days.map((d) => [d.day, d]));
      const timeseries = range.days.map((date) => ({ date, scans: perDay.get(date)?.scans ?? 0, uniqueScans: perDay.get(date)?.uniques ?? 0 }));
      return {
        start: range.start,
        end: range.end,
        totalScans: timeseries.reduce((n, d) => n + d.scans, 0),
        uniqueScans: timeseries.reduce((n, d) => n + d.uniqueScans, 0),
        scansByCountry: countries.map((c) => ({ country: c.country, scans: c.scans })),
        timeseries,
      };
    },
  };
}

export type QrService = ReturnType<typeof createQrService>;
