import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkAddress } from './address-rules.js';
import { checkUrl, safeFetch } from './safe-fetch.js';
import { HopError } from '../errors.js';

test('address rules: only public unicast addresses pass', () => {
  for (const a of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888']) assert.equal(checkAddress(a).allowed, true, a);
  const refused = [
    '127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.100.100.200', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'ff02::1',
  ];
  for (const a of refused) assert.equal(checkAddress(a).allowed, false, a);
});

const opts = { allowPrivate: false, field: 'logoUrl', maxBytes: 1024, timeoutMs: 2000 };

test('a host with any non-public address is refused (URL_NOT_ALLOWED, reason private_address)', async () => {
  const resolve = async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }];
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
