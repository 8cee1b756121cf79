import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkAddress } from './address-rules.js';
import { checkUrl, safeFetch } from './safe-fetch.js';
import { HopError } from '../errors.js';

test('address rules: only public unicast addresses pass', () => {
  const allowed = ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888']; // no-egress-check: judged, never contacted
  for (const a of allowed) assert.equal(checkAddress(a).allowed, true, a);
  const refused = [
    '127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.100.100.200', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'ff02::1',
  ];
  for (const a of refused) assert.equal(checkAddress(a).allowed, false, a);
});

test('address rules: IPv6 forms that carry a private IPv4 address are refused, naming it', () => {
  const carried: [string, RegExp][] = [
    ['::7f00:1', /carries 127\.0\.0\.1/], // [::127.0.0.1], IPv4-compatible
    ['::a9fe:a9fe', /metadata/], // [::169.254.169.254]
    ['::ffff:0:a00:1', /carries 10\.0\.0\.1/], // RFC 6145
    ['64:ff9b::7f00:1', /carries 127\.0\.0\.1/], // NAT64
    ['64:ff9b::a9fe:a9fe', /metadata/],
    ['64:ff9b:1::c0a8:101', /carries 192\.168\.1\.1/],
    ['2002:7f00:1::1', /carries 127\.0\.0\.1/], // 6to4
    ['2002:a00:1::', /carries 10\.0\.0\.1/],
    ['2001:0:7f00:1::', /carries 127\.0\.0\.1/], // Teredo server
    ['2001:0:808:808:0:0:f5ff:fffe', /carries 10\.0\.0\.1/], // Teredo client, inverted
  ];
  for (const [a, why] of carried) {
    const verdict = checkAddress(a);
    assert.equal(verdict.allowed, false, a);
    assert.match((verdict as { why: string }).why, why, a);
  }
  // NAT64 of a public address is that address; 6to4 and Teredo relays stay refused.
  assert.equal(checkAddress('64:ff9b::808:808').allowed, true); // no-egress-check: judged, never contacted
  assert.equal(checkAddress('::ffff:808:808').allowed, true); // no-egress-check: judged, never contacted
  assert.equal(checkAddress('2002:808:808::1').allowed, false);
});

test('HOP_ALLOW_PRIVATE_URLS never lets a cloud metadata address through, in any form', () => {
  for (const a of ['127.0.0.1', '10.0.0.1', '::1', 'fd00::1']) assert.equal(checkAddress(a, { allowPrivate: true }).allowed, true, a);
  const metadata = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254', 'fd00:ec2::23', '::ffff:a9fe:a9fe',
    '::a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::', '2001:0:a9fe:a9fe::'];
  for (const a of metadata) {
    const verdict = checkAddress(a, { allowPrivate: true });
    assert.equal(verdict.allowed, false, a);
    assert.match((verdict as { why: string }).why, /metadata/, a);
  }
});

test('reserved names are never looked up: localhost is loopback, .test/.invalid/example.com do not resolve', async () => {
  const private_ = { allowPrivate: false, field: 'url' };
  for (const host of ['localhost', 'LOCALHOST.', 'api.localhost']) {
    const err = await checkUrl(`https://${host}/x`, private_).catch((e: HopError) => e);
    assert.equal((err as HopError).details.reason, 'private_address', host);
  }
  for (const host of ['hooks.example.test', 'no-such-host.invalid', 'example.com', 'www.example.org', 'a.example']) {
    const err = await checkUrl(`https://${host}/x`, private_).catch((e: HopError) => e);
    assert.match((err as HopError).message, /does not resolve/, host);
  }
});

const opts = { allowPrivate: false, field: 'logoUrl', maxBytes: 1024, timeoutMs: 2000 };

test('a host with any non-public address is refused (URL_NOT_ALLOWED, reason private_address)', async () => {
  // Refused before any connection: no packet goes to the public address.
  const resolve = async () => [{ address: '8.8.8.8', family: 4 }, { address: '10.0.0.7', family: 4 }]; // no-egress-check: refused first
  const err = await checkUrl('https://mixed.example/logo.png', { ...opts, resolve }).catch((e: HopError) => e);
  assert.ok(err instanceof HopError);
  assert.equal(err.code, 'URL_NOT_ALLOWED');
  assert.equal(err.details.reason, 'private_address');
  assert.match(err.message, /^logoUrl: .*10\.0\.0\.7/);
});

let server: Server;
let port: number;
before(async () => {
  server = createServer((req, res) => res.end(`host header ${req.headers.host}`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(() => server.close());

test('the connection goes to the address that was checked, not to a second lookup', async () => {
  let lookups = 0;
  // A rebinding resolver would answer differently the second time; the fetch must not ask again.
  const resolve = async () => (lookups++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '203.0.113.9', family: 4 }]);
  const res = await safeFetch(`http://rebind.example:${port}/x`, { ...opts, allowPrivate: true, resolve });
  assert.equal(lookups, 1);
  assert.equal(res.body.toString(), `host header rebind.example:${port}`);
});
