/** The headers Hop sends with every delivery (docs/api.md, Events and webhooks). */
export const WEBHOOK_HEADERS = {
  signature: 'x-hop-webhook-signature',
  timestamp: 'x-hop-webhook-timestamp',
  eventType: 'x-hop-event-type',
  deliveryId: 'x-hop-webhook-id',
} as const;

/** The Standard Webhooks headers (standardwebhooks.com) every delivery also carries. */
export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** Deliveries older than 30 s, or more than 5 s in the future, are refused (docs/api.md). */
export const MAX_AGE_SECONDS = 30;
export const MAX_FUTURE_SECONDS = 5;
