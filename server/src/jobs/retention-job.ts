import type { Clock } from '../domain/clock.js';
import { retentionDaysSql } from '../domain/plans/plan-limits.js';
import type { PlanMode } from '../domain/plans/plan-mode.js';
import { IDEMPOTENCY_TTL_HOURS } from '../domain/idempotency/idempotency-service.js';
import type { Job } from './schedule.js';

/**
 * Deletes what has outlived its keeping: rollups past the workspace plan's retention (docs/api.md, Limits;
 * raw clicks go by whole partitions, click-partitions-job.ts), visitor lists older than two days,
 * password failures and checks older than the longest lockout window, and idempotency records
 * older than 24 hours. A plan that keeps clicks for good (self-hosted) keeps its rollups.
 */
export function retentionJob(clock: Clock, plans: PlanMode): Job {
  return {
    name: 'retention',
    lockId: 72_410_101,
    async run(tx) {
      const now = clock.now();
      const rollups = await tx.query(
        `delete from click_rollups r using workspaces w
         where w.id = r.workspace_id and r.day < ($1::timestamptz - make_interval(days => (${retentionDaysSql(plans.planSql('w.plan'))})))::date
         returning 1`,
        [now],
      );
      const visitors = await tx.query(`delete from daily_visitors where day < ($1::timestamptz - interval '2 days')::date returning 1`, [now]);
      const failures = await tx.query(`delete from password_failures where failed_at < $1::timestamptz - interval '2 hours' returning 1`, [now]);
      await tx.query(`delete from password_checks where checked_at < $1::timestamptz - interval '30 minutes'`, [now]);
      const idempotency = await tx.query(
        `delete from idempotency_keys where created_at < $1::timestamptz - interval '${IDEMPOTENCY_TTL_HOURS} hours' returning 1`,
        [now],
      );
      // Events keep their payload 7 days (for retries), delivery logs 30 days (docs/api.md).
      const payloads = await tx.query(`update events set payload = null where payload is not null and created_at < $1::timestamptz - interval '7 days' returning 1`, [now]);
      const deliveries = await tx.query(`delete from deliveries where created_at < $1::timestamptz - interval '30 days' returning 1`, [now]);
      const events = await tx.query(`delete from events where created_at < $1::timestamptz - interval '30 days' returning 1`, [now]);
      await tx.query('delete from event_stream_sessions where expires_at < $1', [now]);
      await tx.query('delete from sessions where expires_at < $1', [now]);
      await tx.query('delete from ci_tokens where expires_at < $1', [now]);
      await tx.query(`delete from password_resets where expires_at < $1::timestamptz - interval '1 day'`, [now]);
      await tx.query(`delete from click_spool_progress where updated_at < $1::timestamptz - interval '30 days'`, [now]);
      await tx.query(`delete from stream_results where at < $1::timestamptz - interval '30 days'`, [now]);
      return { payloads: payloads.length, deliveries: deliveries.length, events: events.length, rollups: rollups.length, visitors: visitors.length, failures: failures.length, idempotency: idempotency.length };
    },
  };
}
