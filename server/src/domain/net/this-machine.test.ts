// Which hosts are this machine, judged from injected facts: nothing is resolved or contacted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { createThisMachine } from './this-machine.js';
import { createOwnHostCheck } from '../links/own-hosts.js';

const facts = {
  hostname: () => 'buildbox',
  hostsFile: () => [
    '# comment 10.9.9.9 nothere',
    '127.0.0.1   localhost',
    '127.0.1.1   buildbox.corp.example buildbox-alias   # the Debian convention',
    '::1         ip6-localhost ip6-loopback',
    '192.0.2.10  printer.corp.example',
    '198.51.100.4 eth0-name',
  ].join('\n'),
  interfaces: () => ['127.0.0.1', '::1', '198.51.100.4'],
};

test('the host name and the names the hosts file gives this machine are this machine', () => {
  const m = createThisMachine(facts);
  for (const host of ['buildbox', 'BUILDBOX.', 'buildbox.corp.example', 'buildbox-alias', 'ip6-localhost', 'eth0-name', 'localhost',
    'app.localhost', '127.0.0.1', '127.9.9.9', '[::1]', '0.0.0.0', '::ffff:127.0.0.1', '198.51.100.4']) {
    assert.equal(m.isThisMachine(host), true, host);
  }
  for (const host of ['printer.corp.example', 'nothere', 'example.com', '192.0.2.10', '203.0.113.9']) {
    assert.equal(m.isThisMachine(host), false, host);
  }
});

test('only names the hosts file points at loopback are answered without a resolver', () => {
  const m = createThisMachine(facts);
  for (const name of ['localhost', 'x.localhost', 'buildbox-alias', 'ip6-loopback']) assert.equal(m.isLoopbackName(name), true, name);
  // The host name itself is this machine, but where it resolves is the resolver's to say.
  for (const name of ['buildbox', 'eth0-name', 'printer.corp.example']) assert.equal(m.isLoopbackName(name), false, name);
});

test('a destination naming this machine by its host name or a hosts-file name loops, on the configured port', () => {
  const m = createThisMachine(facts);
  const isOwn = createOwnHostCheck(['localhost:3000'], { machine: m });
  for (const url of ['http://buildbox:3000/x', 'http://buildbox.corp.example:3000/', 'http://buildbox-alias:3000/', 'http://eth0-name:3000/']) {
    assert.equal(isOwn(new URL(url)), true, url);
  }
  assert.equal(isOwn(new URL('http://buildbox:4000/x')), false, 'another port is another program');
  assert.equal(isOwn(new URL('http://printer.corp.example:3000/')), false);
});

test('the system facts include os.hostname()', () => {
  assert.equal(createThisMachine().isThisMachine(hostname()), true);
});
