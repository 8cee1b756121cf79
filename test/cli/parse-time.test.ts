import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTime } from '../../cli/src/flags.js';

const now = Date.parse('2026-01-01T00:00:00.000Z');

test('durations count forwards for expiry and backwards for "created after"', () => {
  assert.equal(parseTime('30m', 1, now), '2026-01-01T00:30:00.000Z');
  assert.equal(parseTime('12h', 1, now), '2026-01-01T12:00:00.000Z');
  assert.equal(parseTime('7d', 1, now), '2026-01-08T00:00:00.000Z');
  assert.equal(parseTime('2w', 1, now), '2026-01-15T00:00:00.000Z');
  assert.equal(parseTime('45s', 1, now), '2026-01-01T00:00:45.000Z');
  assert.equal(parseTime('1d', -1, now), '2025-12-31T00:00:00.000Z');
});

test('ISO times come back as ISO 8601 UTC with milliseconds', () => {
  assert.equal(parseTime('2030-01-02T03:04:05Z', 1, now), '2030-01-02T03:04:05.000Z');
  assert.equal(parseTime('2030-01-02T03:04:05+02:00', 1, now), '2030-01-02T01:04:05.000Z');
  assert.equal(parseTime('2030-01-02', 1, now), '2030-01-02T00:00:00.000Z');
});

test('anything else is refused', () => {
  for (const input of ['tomorrow', '7', '7y', '-3d', '', 'Jan 2 2030', '2030-13-45']) {
    assert.throws(() => parseTime(input, 1, now), /neither an ISO time nor a duration/, input);
  }
});
