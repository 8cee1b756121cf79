import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HopApiError, type HopClient } from '@hop/shared/client';
import { DEFAULT_RETRY, NO_RETRY, retryDelay, withRetry } from './api-retry.js';

const err = (status: number, headers: Record<string, string> = {}) => new HopApiError(status === 429 ? 'RATE_LIMIT_EXCEEDED' : 'INTERNAL_ERROR', 'x', status, {}, headers);
const half = () => 0.5; // no jitter

test('429 waits as long as Retry-After says; 5xx backs off exponentially; 4xx is not retried', () => {
  assert.equal(retryDelay(err(429, { 'retry-after': '7' }), 1, DEFAULT_RETRY, 0, half), 7000 + 250);
  assert.equal(retryDelay(err(503), 1, DEFAULT_RETRY, 0, half), 500);
  assert.equal(retryDelay(err(503), 3, DEFAULT_RETRY, 0, half), 2000);
  assert.equal(retryDelay(err(500), DEFAULT_RETRY.retries + 1, DEFAULT_RETRY, 0, half), null, 'attempts run out');
  assert.equal(retryDelay(err(400), 1, DEFAULT_RETRY), null);
  assert.equal(retryDelay(err(429, { 'retry-after': '3600' }), 1, DEFAULT_RETRY), null, 'an hour is not worth waiting for');
  assert.equal(retryDelay(err(429, { 'retry-after': '1' }), 1, NO_RETRY), null, '--no-retry');
  assert.equal(retryDelay(new HopApiError('NETWORK_ERROR', 'down', 0), 1, DEFAULT_RETRY, 0, half), 500);
});

test('a write keeps one Idempotency-Key across its retries; reads carry none', async () => {
  const seen: (string | undefined)[] = [];
  let failures = 2;
  const fake = {
    baseUrl: 'http://x',
    raw: async () => ({ status: 200, headers: {}, body: null, text: '' }),
    call: async (_name: string, input: { idempotencyKey?: string }) => {
      seen.push(input.idempotencyKey);
      if (failures-- > 0) throw err(502);
      return { success: true, data: {} };
    },
  } as unknown as HopClient;
  const api = withRetry(fake, { retries: 3, baseMs: 1, maxDelayMs: 10 }, { sleep: async () => {} });
  await api.call('createLink', { params: { workspaceId: 'ws_x' }, body: { url: 'https://example.com' } } as never);
  assert.equal(seen.length, 3);
  assert.ok(seen[0] && seen.every((k) => k === seen[0]));
  seen.length = 0;
  await api.call('listWorkspaces', {} as never);
  assert.deepEqual(seen, [undefined]);
});
