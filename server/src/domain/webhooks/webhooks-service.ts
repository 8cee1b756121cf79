import type { CreatedWebhook, CreateWebhookBody, Delivery, EventType, UpdateWebhookBody, Webhook } from '@hop/shared';
import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import { HopError, notFound } from '../errors.js';
import type { IdGenerator } from '../ids.js';
import { plansWith, type FeatureGate } from '../plans/plan-gates.js';
import type { PlanMode } from '../plans/plan-mode.js';
import type { Actor } from '../auth/actor.js';
import type { Membership } from '../workspaces/workspaces-service.js';
import { sampleEnvelope } from '../events/sample-events.js';
import { createSigningSecrets, newWebhookSecret, type SecretBox } from './webhook-secrets.js';
import type { WebhookSender } from './webhook-sender.js';
import { afterCreated, createdKeyOf, pageOf, type PageQuery } from '../pagination.js';
import { DELIVERY_SELECT, toDelivery, toWebhook, type DeliveryRow, type WebhookRow } from './webhook-row.js';

export interface WebhooksConfig {
  shortDomain: string;
  shortScheme: string;
}

/** Rejects endpoint URLs that break the address rules (docs/api.md, Events and webhooks); resolves when allowed. */
export type UrlGuard = (url: string) => Promise<void>;

export function createWebhooksService(deps: {
  db: Database;
  clock: Clock;
  newId: IdGenerator;
  box: SecretBox;
  sender: WebhookSender;
  checkUrl: UrlGuard;
  config: WebhooksConfig;
  /** How a workspace's stored plan reads (HOP_PLANS). */
  plans: PlanMode;
  /** The webhooks feature, for the one change whose need of it depends on the body (update). */
  features: FeatureGate;
}) {
  const { db, clock, newId, box, sender, checkUrl, config, plans, features } = deps;

  async function load(workspaceId: string, webhookId: string): Promise<WebhookRow> {
    const [row] = await db.query<WebhookRow>('select * from webhooks where id = $1 and workspace_id = $2', [webhookId, workspaceId]);
    if (!row) throw notFound('webhook');
    return row;
  }

  const signingSecrets = createSigningSecrets(box, clock);

  return {
    signingSecrets,

    async create(actor: Actor, body: CreateWebhookBody, opts: { secret?: string; source?: 'api' | 'integration' } = {}): Promise<CreatedWebhook> {
      await checkUrl(body.url);
      const secret = opts.secret ?? newWebhookSecret();
      const [row] = await db.query<WebhookRow>(
        `insert into webhooks (id, workspace_id, url, description, events, secret, source, created_by)
         values ($1, $2, $3, $4, $5::text[], $6, $7, $8) returning *`,
        [newId('wh'), actor.workspaceId, body.url, body.description ?? null, [...new Set(body.events)], box.seal(secret),
          opts.source ?? 'api', actor.userId],
      );
      return { ...toWebhook(row), secret };
    },

    async list(workspaceId: string, q: PageQuery) {
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<WebhookRow>(
        `select * from webhooks where workspace_id = $1 and ($2::timestamptz is null or (created_at, id) > ($2::timestamptz, $3))
         order by created_at, id limit $4`,
        [workspaceId, t, id, q.limit + 1],
      );
      return pageOf(rows, q.limit, toWebhook, afterCreated);
    },

    get: async (workspaceId: string, webhookId: string) => toWebhook(await load(workspaceId, webhookId)),

    async update(ws: Membership, webhookId: string, body: UpdateWebhookBody): Promise<Webhook> {
      // Below Pro a workspace may still switch its webhooks off (and delete them), nothing more.
      // Whether this change needs the plan depends on the body, so the check is here and not on
      // the route (the routes that always need it declare `feature` in shared/src/routes/).
      const onlyDisables = body.isActive === false && Object.values({ ...body, isActive: undefined }).every((v) => v === undefined);
      if (!onlyDisables) features('webhooks', ws);
      const row = await load(ws.workspaceId, webhookId);
      if (body.url !== undefined) await checkUrl(body.url);
      const reactivate = body.isActive === true && !row.is_active;
      const [updated] = await db.query<WebhookRow>(
        `update webhooks set url = $3, description = $4, events = $5::text[], is_active = $6,
           consecutive_failures = case when $7 then 0 else consecutive_failures end,
           disabled_at = case when $6 then null when is_active and not $6 then now() else disabled_at end,
           updated_at = now()
         where id = $1 and workspace_id = $2 returning *`,
        [row.id, ws.workspaceId, body.url ?? row.url, body.description === undefined ? row.description : body.description,
          body.events ? [...new Set(body.events)] : row.events, body.isActive ?? row.is_active, reactivate],
      );
      if (reactivate) await db.query(`update deliveries set next_attempt_at = now() where webhook_id = $1 and status = 'pending'`, [row.id]);
      return toWebhook(updated);
    },

    async delete(workspaceId: string, webhookId: string): Promise<Webhook> {
      const row = await load(workspaceId, webhookId);
      await db.query('delete from webhooks where id = $1', [row.id]);
      return toWebhook(row);
    },

    async rotateSecret(ws: Membership, webhookId: string, graceSeconds = 0) {
      const row = await load(ws.workspaceId, webhookId);
      const secret = newWebhookSecret();
      const until = graceSeconds > 0 ? new Date(clock.now().getTime() + graceSeconds * 1000) : null;
      await db.query(
        `update webhooks set secret = $2, previous_secret = $3, previous_secret_until = $4, updated_at = now() where id = $1`,
        [row.id, box.seal(secret), until ? row.secret : null, until],
      );
      return { secret, previousSecretExpiresAt: until ? until.toISOString() : null };
    },

    async enable(ws: Membership, webhookId: string): Promise<Webhook> {
      return this.update(ws, webhookId, { isActive: true });
    },

    /** Sends a sample event at once and reports the endpoint's answer; records nothing. */
    async test(ws: Membership, webhookId: string, type: EventType = 'link.created') {
      const row = await load(ws.workspaceId, webhookId);
      await checkUrl(row.url);
      const event = sampleEnvelope({ type, workspaceId: ws.workspaceId, eventId: newId('evt'), shortDomain: config.shortDomain, scheme: config.shortScheme, now: clock.now() });
      const r = await sender.send({ url: row.url, secrets: signingSecrets(row), deliveryId: newId('dlv'), eventType: type, rawBody: JSON.stringify(event) });
      return { eventId: event.id, success: r.ok, statusCode: r.statusCode, durationMs: r.durationMs, error: r.error };
    },

    async listDeliveries(workspaceId: string, webhookId: string, q: PageQuery & { status?: string }) {
      await load(workspaceId, webhookId);
      const [t, id] = createdKeyOf(q.cursor);
      const rows = await db.query<DeliveryRow>(
        `${DELIVERY_SELECT} where d.webhook_id = $1 and ($2::text is null or d.status = $2)
           and ($3::timestamptz is null or (d.created_at, d.id) < ($3::timestamptz, $4))
         order by d.created_at desc, d.id desc limit $5`,
        [webhookId, q.status ?? null, t, id, q.limit + 1],
      );
      return pageOf(rows, q.limit, toDelivery, afterCreated);
    },

    /**
     * After a plan change: a workspace below Pro has its pending deliveries end `failed` with the
     * error `plan_required` (an attempt that sent nothing), all at once rather than as each
     * comes due. The dispatcher does the same to any it claims, whatever changed the plan.
     */
    async planChanged(workspaceId: string): Promise<number> {
      const rows = await db.query(
        `with ended as (
           update deliveries d set status = 'failed', attempt_count = d.attempt_count + 1, next_attempt_at = null,
             locked_until = null, updated_at = now()
           from webhooks h join workspaces w on w.id = h.workspace_id
           where d.webhook_id = h.id and h.workspace_id = $1 and d.status = 'pending' and (d.locked_until is null or d.locked_until < now())
             and not (${plans.planSql('w.plan')} = any($2::text[]))
           returning d.id, d.attempt_count)
         insert into delivery_attempts (delivery_id, number, at, status_code, duration_ms, error)
         select id, attempt_count, now(), null, 0, 'plan_required' from ended returning delivery_id`,
        [workspaceId, plansWith('webhooks')],
      );
      return rows.length;
    },

    /** Queues one more attempt of a delivery, under the same delivery id. */
    async retryDelivery(ws: Membership, webhookId: string, deliveryId: string): Promise<Delivery> {
      await load(ws.workspaceId, webhookId);
      const [d] = await db.query<{ status: string; payload: unknown }>(
        `select d.status, e.payload from deliveries d left join events e on e.id = d.event_id where d.id = $1 and d.webhook_id = $2`,
        [deliveryId, webhookId],
      );
      if (!d) throw notFound('delivery');
      if (d.payload == null) throw new HopError('GONE', 'the payload of this delivery is past its 7-day retention');
      if (d.status === 'pending') throw new HopError('CONFLICT', 'this delivery is still being attempted');
      await db.query(
        `update deliveries set status = 'pending', next_attempt_at = now(), locked_until = null,
           max_attempts = attempt_count + 1, updated_at = now() where id = $1`,
        [deliveryId],
      );
      await db.query(`select pg_notify('hop_event', $1)`, [`${ws.workspaceId}:retry`]);
      const [row] = await db.query<DeliveryRow>(`${DELIVERY_SELECT} where d.id = $1`, [deliveryId]);
      return toDelivery(row);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
