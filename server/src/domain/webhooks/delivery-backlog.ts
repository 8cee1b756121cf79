import type { Queryable } from '../../db/database.js';

// The deliveries table keeps 30 days of history (jobs/retention-job.ts): at click volume, billions
// of rows. What the metrics read about it goes through the partial indexes of pending deliveries
// (deliveries_due_idx, deliveries_pending_by_webhook_idx), so a scrape costs what the backlog
// holds, never what the history does. A delivery that ended keeps its entry there until the table
// is next vacuumed, so the reads also pass the deliveries that ended since then (as the
// dispatcher's claim does), never the history before.

/** Deliveries waiting to be sent, due now or scheduled for a retry. */
export async function pendingDeliveries(db: Queryable): Promise<number> {
  const [r] = await db.query<{ n: number }>(`select count(*)::int as n from deliveries where status = 'pending'`);
  return Number(r?.n ?? 0);
}

/** Seconds since the oldest delivery that is due and not yet sent came due (0 when none is). */
export async function deliveryLagSeconds(db: Queryable): Promise<number> {
  const [r] = await db.query<{ lag: number | null }>(
    `select extract(epoch from now() - min(next_attempt_at))::float8 as lag from deliveries where status = 'pending' and next_attempt_at <= now()`,
  );
  return Math.max(0, Number(r?.lag ?? 0));
}
