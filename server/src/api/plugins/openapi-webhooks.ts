import type { OpenAPIV3_1 } from 'openapi-types';
import { EVENT_CATALOGUE, WEBHOOK_HEADERS } from '@hop/shared';

const header = (name: string, description: string, example: string): OpenAPIV3_1.ParameterObject => ({
  name, in: 'header', required: true, description, schema: { type: 'string' }, example,
});

const DELIVERY_HEADERS = [
  header(WEBHOOK_HEADERS.deliveryId, 'The delivery id, the same on every attempt and retry: deduplicate on it', 'dlv_0Ppq8sWb3c1Fz9Xk2Lm4'),
  header(WEBHOOK_HEADERS.eventType, 'The event type, as in the body', 'link.created'),
  header(WEBHOOK_HEADERS.timestamp, 'Unix seconds when the attempt was signed; refuse one older than 30 s', '1795600000'),
  header(WEBHOOK_HEADERS.signature,
    '`v1=` + hex HMAC-SHA256 of `{timestamp}.{rawBody}` with the webhook secret; two space-separated values during a secret rotation',
    'v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd'),
];

/**
 * The `webhooks` section of the OpenAPI document: one entry per event type, whose body is that
 * event's schema from the shared contract (a component the document already holds).
 */
export function eventWebhooks(): Record<string, OpenAPIV3_1.PathItemObject> {
  return Object.fromEntries(EVENT_CATALOGUE.map(({ type, schemaId, summary }) => [type, {
    post: {
      operationId: `event:${type}`,
      summary,
      description: 'Sent to every active webhook of the workspace that subscribed to this event type, signed with its secret (the headers below). Hop is the caller: the receiver checks the signature, not a credential.',
      tags: ['events'],
      security: [],
      parameters: DELIVERY_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaId}` } } } },
      responses: {
        '2XX': { description: 'Received. Any other answer, a timeout (30 s) or a redirect is retried: 5 attempts at 0, 2, 8, 32 and 128 s.' },
      },
    },
  }]));
}
