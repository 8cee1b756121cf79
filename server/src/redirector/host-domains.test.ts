// Which domain a visit's Host serves, without waiting: the default short domain's hosts by their
// shape alone (remembered for the last one), verified custom domains from the loaded set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHostDomains } from './host-domains.js';

test('default hosts answer by shape, before and after a custom host, whatever the set holds', async () => {
  let verified = ['go.example.com'];
  let clock = 0;
  const hosts = createHostDomains({ shortDomain: 'hop.test:8080', load: async () => verified, now: () => clock });
  // Shape alone: the short domain's host, a name without a dot, an address. No set needed.
  assert.equal(hosts.domainForHost('hop.test'), 'hop.test:8080');
  assert.equal(hosts.domainForHost('HOP.TEST.'), 'hop.test:8080');
  assert.equal(hosts.domainForHost('127.0.0.1'), 'hop.test:8080');
  // A custom host needs the set: undefined until it is loaded.
  assert.equal(hosts.domainForHost('go.example.com'), undefined);
  await hosts.domainFor({ hostname: 'go.example.com' } as never);
  assert.equal(hosts.domainForHost('go.example.com'), 'go.example.com');
  assert.equal(hosts.domainForHost('127.0.0.1'), 'hop.test:8080', 'the remembered default host again');
  assert.equal(hosts.domainForHost('go.example.com'), 'go.example.com', 'and the custom one after it');
  // A domain removed from the set falls back to the default once the set reloads.
  verified = [];
  hosts.invalidate();
  assert.equal(hosts.domainForHost('go.example.com'), undefined);
  await hosts.domainFor({ hostname: 'go.example.com' } as never);
  assert.equal(hosts.domainForHost('go.example.com'), 'hop.test:8080');
  // The set goes stale after 30 s; the default host's answer never needs it.
  clock += 31_000;
  assert.equal(hosts.domainForHost('go.example.com'), undefined);
  assert.equal(hosts.domainForHost('127.0.0.1'), 'hop.test:8080');
  assert.equal(hosts.domainForHost('hop.test'), 'hop.test:8080');
});
