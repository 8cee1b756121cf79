import type { Delivery, EventType, Webhook } from '@hop/shared';
import { iso, isoOrNull } from '../timestamps.js';

export interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  events: EventType[];
  is_active: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  consecutive_failures: number;
  disabled_at: Date | null;
  source: 'api' | 'integration';
  created_at: Date;
  updated_at: Date;
}

export const toWebhook = (r: WebhookRow): Webhook => ({
  id: r.id,
  url: r.url,
  description: r.description,
  events: r.events,
  isActive: r.is_active,
  consecutiveFailures: r.consecutive_failures,
  disabledAt: isoOrNull(r.disabled_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: EventType;
  status: 'pending' | 'succeeded' | 'failed';
  next_attempt_at: Date | null;
  created_at: Date;
  attempts: { number: number; at: string; status_code: number | null; duration_ms: number; error: string | null }[] | null;
}

export const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id,
  webhookId: r.webhook_id,
  eventId: r.event_id,
  eventType: r.event_type,
  status: r.status,
  attempts: (r.attempts ?? [])
    .sort((a, b) => a.number - b.number)
    .map((a) => ({ number: a.number, at: iso(a.at), statusCode: a.status_code, durationMs: a.duration_ms, error: a.error })),
  nextAttemptAt: r.status === 'pending' ? isoOrNull(r.next_attempt_at) : null,
  createdAt: iso(r.created_at),
});

/** Deliveries with their attempts as one JSON array, ready for toDelivery. */
export const DELIVERY_SELECT = `select d.id, d.webhook_id, d.event_id, d.event_type, d.status, d.next_attempt_at, d.created_at,
  (select json_agg(json_build_object('number', a.number, 'at', a.at, 'status_code', a.status_code,
     'duration_ms', a.duration_ms, 'error', a.error)) from delivery_attempts a where a.delivery_id = d.id) as attempts
  from deliveries d`;
