import type { EventType, TriggerEventBody, TriggerEventResult } from '@hop/shared';
import type { Database } from '../../db/database.js';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { FeatureGate } from '../plans/plan-gates.js';
import type { Membership } from '../workspaces/workspaces-service.js';
import type { WebhooksService } from '../webhooks/webhooks-service.js';
import type { EventOutbox } from './event-outbox.js';
import { sampleEnvelope } from './sample-events.js';

/**
 * `hop webhooks trigger`, as `stripe trigger` does: a sample event of any type, marked
 * `"test": true`, sent to one webhook at once (answered as a webhook's test is; Pro plan) or
 * published to the workspace's live event stream for `hop webhooks tail` (any plan).
 */
export function createEventTrigger(deps: {
  db: Database; clock: Clock; newId: IdGenerator; outbox: EventOutbox; webhooks: WebhooksService; features: FeatureGate;
  config: { shortDomain: string; shortScheme: string };
}) {
  return async function trigger(ws: Membership, body: TriggerEventBody): Promise<TriggerEventResult> {
    const type: EventType = body.type;
    if (body.webhookId) {
      // Only a webhook target needs the plan, so the check follows the body rather than the route.
      deps.features('webhooks', ws);
      const r = await deps.webhooks.test(ws, body.webhookId, type);
      return { ...r, type, target: 'webhook', webhookId: body.webhookId };
    }
    const event = sampleEnvelope({
      type, workspaceId: ws.workspaceId, eventId: deps.newId('evt'), shortDomain: deps.config.shortDomain,
      scheme: deps.config.shortScheme, now: deps.clock.now(),
    });
    await deps.db.transaction((tx) => deps.outbox.publishSample(tx, event));
    return { eventId: event.id, type, target: 'tail', webhookId: null, success: true, statusCode: null, durationMs: 0, error: null };
  };
}

export type EventTrigger = ReturnType<typeof createEventTrigger>;
