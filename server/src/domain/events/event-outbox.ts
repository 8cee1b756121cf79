import type { EventPayload, HopEvent } from '@hop/shared';
import type { Queryable } from '../../db/database.js';
import type { IdGenerator } from '../ids.js';
import { plansWith } from '../plans/plan-gates.js';
import type { PlanMode } from '../plans/plan-mode.js';

export const EVENT_CHANNEL = 'hop_event';

/** An event to emit: its type and `data` as the shared event schemas define them. */
export type NewEvent = EventPayload & {
  workspaceId: string;
  at?: Date;
};

/**
 * The outbox: an event and one delivery per subscribed, active webhook, written with the caller's
 * transaction so they commit (or vanish) with the change itself. NOTIFY, delivered at commit,
 * wakes the dispatchers and the event streams of every process.
 */
export function createEventOutbox(deps: { newId: IdGenerator; plans: PlanMode }) {
  const { newId, plans } = deps;

  async function emitMany(tx: Queryable, events: NewEvent[]): Promise<HopEvent[]> {
    if (events.length === 0) return [];
    const envelopes = events.map((e) => ({
      id: newId('evt'),
      type: e.type,
      timestamp: (e.at ?? new Date()).toISOString(),
      workspaceId: e.workspaceId,
      data: e.data,
    }) as HopEvent);
    const rows = await tx.query<{ id: string; seq: number }>(
      `insert into events (id, workspace_id, type, payload, created_at)
       select v.id, v.ws, v.type, v.payload::json, v.at from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
         as v(id, ws, type, payload, at)
       returning id, seq`,
      [envelopes.map((e) => e.id), envelopes.map((e) => e.workspaceId), envelopes.map((e) => e.type),
        envelopes.map((e) => JSON.stringify(e)), envelopes.map((e) => e.timestamp)],
    );
    // Fan out to the webhooks subscribed to each event's type, in workspaces whose plan has
    // webhooks: below it, a workspace keeps its webhooks but nothing is queued for them.
    const workspaces = [...new Set(envelopes.map((e) => e.workspaceId))];
    const hooks = await tx.query<{ id: string; workspace_id: string; events: string[] }>(
      `select h.id, h.workspace_id, h.events from webhooks h join workspaces w on w.id = h.workspace_id
       where h.workspace_id = any($1::text[]) and h.is_active and ${plans.planSql('w.plan')} = any($2::text[])`,
      [workspaces, plansWith('webhooks')],
    );
    const deliveries: [string, string, string, string][] = [];
    for (const e of envelopes) {
      for (const h of hooks) {
        if (h.workspace_id === e.workspaceId && h.events.includes(e.type)) deliveries.push([newId('dlv'), h.id, e.id, e.type]);
      }
    }
    if (deliveries.length) {
      await tx.query(
        `insert into deliveries (id, webhook_id, event_id, event_type, next_attempt_at)
         select *, now() from unnest($1::text[], $2::text[], $3::text[], $4::text[])`,
        [deliveries.map((d) => d[0]), deliveries.map((d) => d[1]), deliveries.map((d) => d[2]), deliveries.map((d) => d[3])],
      );
    }
    await notify(tx, envelopes, rows);
    return envelopes;
  }

  /** One notification per workspace: listeners read every event after the last one they sent. */
  async function notify(tx: Queryable, envelopes: HopEvent[], rows: { id: string; seq: number }[]) {
    const wsOf = new Map(envelopes.map((e) => [e.id, e.workspaceId]));
    const maxSeq = new Map<string, number>();
    for (const r of rows) {
      const ws = wsOf.get(r.id)!;
      maxSeq.set(ws, Math.max(maxSeq.get(ws) ?? 0, Number(r.seq)));
    }
    for (const [ws, seq] of maxSeq) await tx.query('select pg_notify($1, $2)', [EVENT_CHANNEL, `${ws}:${seq}`]);
  }

  /**
   * A sample event for the live event stream alone (`hop webhooks trigger` without a webhook): it
   * is written so that every process's stream sends it, and queues no delivery.
   */
  async function publishSample(tx: Queryable, event: HopEvent & { test: true }): Promise<void> {
    const rows = await tx.query<{ id: string; seq: number }>(
      `insert into events (id, workspace_id, type, payload, created_at) values ($1, $2, $3, $4::json, $5) returning id, seq`,
      [event.id, event.workspaceId, event.type, JSON.stringify(event), event.timestamp],
    );
    await notify(tx, [event], rows);
  }

  return {
    emit: async (tx: Queryable, event: NewEvent) => (await emitMany(tx, [event]))[0],
    emitMany,
    publishSample,
  };
}

export type EventOutbox = ReturnType<typeof createEventOutbox>;
