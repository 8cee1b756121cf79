// The key per-address limits count a client by: IPv4 whole, IPv6 by its /64.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressKey } from './address-key.js';

test('IPv6 addresses of one /64 share a key; another /64 has its own', () => {
  const a = addressKey('2001:db8:1:2::1');
  assert.equal(a, '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:db8:1:2:ffff:ffff:ffff:fffe'), a);
  assert.equal(addressKey('2001:0db8:0001:0002:0:0:0:9'), a, 'any spelling');
  assert.notEqual(addressKey('2001:db8:1:3::1'), a);
});

test('IPv4 addresses count whole, mapped or not', () => {
  assert.equal(addressKey('198.51.100.7'), '198.51.100.7');
  assert.equal(addressKey('::ffff:198.51.100.7'), '198.51.100.7');
  assert.notEqual(addressKey('198.51.100.8'), addressKey('198.51.100.7'));
  assert.equal(addressKey('not an address'), 'not an address');
});
