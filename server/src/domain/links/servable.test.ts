// The redirector's one rule, as the fast path, the router and the status field all read it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servable } from './servable.js';

const now = Date.parse('2026-11-26T10:00:00Z');
const plain = { expiresAt: null, maxClicks: null, passwordHash: null };

test('a plain link is active; expiry at or before now makes it expired', () => {
  assert.equal(servable(plain, now), 'active');
  assert.equal(servable({ ...plain, expiresAt: now + 1 }, now), 'active');
  assert.equal(servable({ ...plain, expiresAt: now }, now), 'expired');
});

test('a limit is limited when only the database knows the count, reached or active when the count is known', () => {
  assert.equal(servable({ ...plain, maxClicks: 5 }, now), 'limited');
  assert.equal(servable({ ...plain, maxClicks: 5, clicks: 4 }, now), 'active');
  assert.equal(servable({ ...plain, maxClicks: 5, clicks: 5 }, now), 'limit_reached');
});

test('a password locks the link until the visitor has unlocked it, then its limit applies', () => {
  const locked = { ...plain, passwordHash: 'hash', maxClicks: 3 };
  assert.equal(servable(locked, now), 'locked');
  assert.equal(servable(locked, now, () => false), 'locked');
  assert.equal(servable(locked, now, () => true), 'limited');
});

test('expiry wins over a reached limit, and both over the password (no form for a link that cannot serve)', () => {
  const all = { expiresAt: now - 1, maxClicks: 1, clicks: 1, passwordHash: 'hash' };
  assert.equal(servable(all, now), 'expired');
  assert.equal(servable({ ...all, expiresAt: null }, now), 'limit_reached');
});

test('the unlock check is not asked for a link without a password', () => {
  assert.equal(servable(plain, now, () => assert.fail('asked')), 'active');
});
