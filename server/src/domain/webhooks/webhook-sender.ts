import { randomUUID } from 'node:crypto';
import { signWebhook, WEBHOOK_HEADERS } from '@hop/shared';

/** 30 s for the endpoint to answer with a 2xx (docs/api.md). */
export const DELIVERY_TIMEOUT_MS = 30_000;

export interface PostResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** Sends one POST under the address rules, following no redirect; never throws. */
export type SafePost = (url: string, headers: Record<string, string>, body: string, timeoutMs: number) => Promise<PostResult>;

/** Builds the signed request of one attempt and sends it. */
export function createWebhookSender(deps: { post: SafePost; now?: () => number }) {
  const now = deps.now ?? Date.now;
  return {
    async send(opts: { url: string; secrets: string[]; deliveryId: string; eventType: string; rawBody: string }): Promise<PostResult & { ok: boolean }> {
      const timestamp = Math.floor(now() / 1000);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Hop-Webhooks/1.0 (+https://hop.dev/docs/webhooks)',
        [WEBHOOK_HEADERS.signature]: opts.secrets.map((s) => signWebhook(s, timestamp, opts.rawBody)).join(' '),
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.eventType]: opts.eventType,
        [WEBHOOK_HEADERS.deliveryId]: opts.deliveryId,
        'x-request-id': `req_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      };
      const result = await deps.post(opts.url, headers, opts.rawBody, DELIVERY_TIMEOUT_MS);
      const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      return { ...result, ok, error: ok ? null : (result.error ?? `endpoint answered ${result.statusCode}`) };
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
