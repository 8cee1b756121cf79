import { WEBHOOK_HEADERS } from '@hop/shared';
import { MAX_AGE_SECONDS, MAX_FUTURE_SECONDS, verifyWebhook, type VerifyResult } from '@hop/shared/webhook-signature';

export type VerifyReason = Extract<VerifyResult, { ok: false }>['reason'];

export type SignatureCheck = { valid: true; reason: null; explanation: null } | { valid: false; reason: VerifyReason | 'altered_body' | 'wrong_secret'; explanation: string };

/** Why a signature failed, in words a receiver's author can act on. */
export function explainReason(reason: VerifyReason, timestamp?: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const age = timestamp && /^\d+$/.test(timestamp) ? nowSeconds - Number(timestamp) : undefined;
  switch (reason) {
    case 'missing_headers':
      return `missing headers: ${WEBHOOK_HEADERS.signature} and ${WEBHOOK_HEADERS.timestamp} are both needed`;
    case 'bad_timestamp':
      return 'bad timestamp: not a number of seconds since 1970';
    case 'stale_timestamp':
      return `stale timestamp: signed ${age ?? '?'} s ago, more than ${MAX_AGE_SECONDS} s (a replay, or a slow clock)`;
    case 'future_timestamp':
      return `timestamp in the future: ${age === undefined ? '?' : -age} s ahead, more than ${MAX_FUTURE_SECONDS} s (a fast clock)`;
    case 'signature_mismatch':
      return 'signature mismatch: wrong secret, or the body was altered';
  }
}

/**
 * Verifies a stream event with `verifyWebhook`, as a receiver would. A mismatch is split in two:
 * a body that no longer names the event it was sent as was altered; one that does, but does not
 * match, was signed with another secret than the one announced.
 */
export function checkStreamEvent(
  secret: string,
  event: { eventId: string; type: string; body: string; headers: Record<string, string> },
  nowSeconds = Math.floor(Date.now() / 1000),
): SignatureCheck {
  const result = verifyWebhook(secret, event.headers, event.body, nowSeconds);
  if (result.ok) return { valid: true, reason: null, explanation: null };
  if (result.reason !== 'signature_mismatch') {
    return { valid: false, reason: result.reason, explanation: explainReason(result.reason, event.headers[WEBHOOK_HEADERS.timestamp], nowSeconds) };
  }
  let envelope: { id?: unknown; type?: unknown } | undefined;
  try {
    envelope = JSON.parse(event.body) as { id?: unknown; type?: unknown };
  } catch {
    /* not JSON any more */
  }
  if (envelope?.id !== event.eventId || envelope?.type !== event.type) {
    return { valid: false, reason: 'altered_body', explanation: 'altered body: it no longer matches the event it was signed as' };
  }
  return { valid: false, reason: 'wrong_secret', explanation: 'wrong secret: not signed with the secret this session announced' };
}
