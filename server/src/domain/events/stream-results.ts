import { z } from 'zod';
import type { StreamResult, StreamResultBody } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import { notFound } from '../errors.js';
import { iso } from '../timestamps.js';
import { cursorCodec, CursorTimeSchema, pageOf, type PageQuery } from '../pagination.js';

const resultCursor = cursorCodec(z.strictObject({ t: CursorTimeSchema, seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }));

interface Row {
  event_id: string;
  event_type: StreamResult['eventType'];
  delivery_id: string;
  forwarded_to: string | null;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  at: Date;
}

const toResult = (r: Row): StreamResult => ({
  eventId: r.event_id, eventType: r.event_type, deliveryId: r.delivery_id, forwardedTo: r.forwarded_to,
  statusCode: r.status_code, durationMs: r.duration_ms, error: r.error, at: iso(r.at),
});

/** The delivery log of `hop webhooks tail --forward-to`: what each local receiver answered. */
export function createStreamResults(deps: { db: Queryable }) {
  const { db } = deps;
  return {
    async report(workspaceId: string, credentialId: string, body: StreamResultBody): Promise<StreamResult> {
      const [row] = await db.query<Row>(
        `insert into stream_results (workspace_id, event_id, event_type, delivery_id, forwarded_to, status_code, duration_ms, error, reported_by)
         select $1, e.id, e.type, $3, $4, $5, $6, $7, $8 from events e where e.id = $2 and e.workspace_id = $1
         returning event_id, event_type, delivery_id, forwarded_to, status_code, duration_ms, error, at`,
        [workspaceId, body.eventId, body.deliveryId, body.forwardedTo, body.statusCode, body.durationMs, body.error, credentialId],
      );
      if (!row) throw notFound('event');
      return toResult(row);
    },
    /** Newest first. */
    async list(workspaceId: string, q: PageQuery) {
      const after = q.cursor ? resultCursor.decode(q.cursor) : null;
      const rows = await db.query<Row & { id: string }>(
        `select id, event_id, event_type, delivery_id, forwarded_to, status_code, duration_ms, error, at from stream_results
         where workspace_id = $1 and ($2::timestamptz is null or (at, id) < ($2::timestamptz, $3::bigint))
         order by at desc, id desc limit $4`,
        [workspaceId, after?.t ?? null, after?.seq ?? null, q.limit + 1],
      );
      return pageOf(rows, q.limit, toResult, (r) => resultCursor.encode({ t: r.at.toISOString(), seq: Number(r.id) }));
    },
  };
}

export type StreamResults = ReturnType<typeof createStreamResults>;
