import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signWebhook } from '@hop/shared/webhook-signature';
import { checkStreamEvent } from './signature-check.js';

const secret = 'whsec_test-secret';
const now = 1_767_225_600;
const body = JSON.stringify({ id: 'evt_1', type: 'link.created', data: {} });
const event = (over: { body?: string; signedWith?: string; ts?: number } = {}) => {
  const ts = over.ts ?? now;
  return {
    eventId: 'evt_1', type: 'link.created', body: over.body ?? body,
    headers: { 'x-hop-webhook-timestamp': String(ts), 'x-hop-webhook-signature': signWebhook(over.signedWith ?? secret, ts, body) },
  };
};

test('a good signature is valid; each failure says why', () => {
  assert.equal(checkStreamEvent(secret, event(), now).valid, true);
  const stale = checkStreamEvent(secret, event({ ts: now - 45 }), now);
  assert.equal(stale.reason, 'stale_timestamp');
  assert.match(stale.explanation!, /stale timestamp: signed 45 s ago/);
  assert.equal(checkStreamEvent(secret, event({ ts: now + 60 }), now).reason, 'future_timestamp');
  assert.equal(checkStreamEvent(secret, event({ signedWith: 'whsec_other' }), now).reason, 'wrong_secret');
  const altered = checkStreamEvent(secret, event({ body: body.replace('evt_1', 'evt_2') }), now);
  assert.equal(altered.reason, 'altered_body');
  assert.equal(checkStreamEvent(secret, { ...event(), headers: {} }, now).reason, 'missing_headers');
});
