// The address rules of outgoing requests (webhook endpoints, QR logos) through the real server:
// IPv6 forms that carry an IPv4 address are judged by what they carry, and HOP_ALLOW_PRIVATE_URLS
// never opens the cloud metadata service.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HopApiError } from '@hop/shared/client';
import { ADMIN_TOKEN, team, type Team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

const refusal = (p: Promise<unknown>) => p.then(() => assert.fail('accepted'), (e: HopApiError) => e);

async function createHook(t: Team, url: string) {
  return t.api.call('createWebhook', { params: { workspaceId: t.workspaceId }, body: { url, events: ['link.created'] } });
}

test('IPv4-compatible, NAT64, 6to4 and Teredo forms of private addresses are refused', async () => {
  const t = await team('pro');
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/logo-test' } });
  const forms = [
    'https://[::127.0.0.1]/hook', 'https://[::a9fe:a9fe]/latest/meta-data', 'https://[::10.0.0.1]/hook',
    'https://[::ffff:0:127.0.0.1]/hook', 'https://[64:ff9b::127.0.0.1]/hook', 'https://[64:ff9b::a9fe:a9fe]/hook',
    'https://[2002:7f00:1::1]/hook', 'https://[2002:c0a8:101::]/hook', 'https://[2001:0:7f00:1::]/hook',
    'https://[2001:0:808:808:0:0:f5ff:fffe]/hook',
  ];
  for (const url of forms) {
    const err = await refusal(createHook(t, url));
    assert.equal(err.statusCode, 400, url);
    assert.equal(err.code, 'URL_NOT_ALLOWED', url);
    assert.equal(err.details.reason, 'private_address', url);
    assert.match(err.message, /carries|metadata/, url);
    const logo = await refusal(t.api.call('createQrCode', { params: { linkId: link.id }, body: { logoUrl: url.replace('/hook', '/logo.png') } }));
    assert.equal(logo.code, 'URL_NOT_ALLOWED', url);
  }
  assert.equal((await t.api.call('listWebhooks', { params: { workspaceId: t.workspaceId } })).data.length, 0);
});

test('HOP_ALLOW_PRIVATE_URLS allows loopback but never a cloud metadata address, in any spelling', async () => {
  const receiver = await startReceiver();

  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer({ dataDir: scratchDir('hop-egress-'), env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
    const t = await team('pro', server.url);
    await createHook(t, `${receiver.url}/ok`); // loopback, http: allowed for development
    const metadata = [
      'http://169.254.169.254/latest/meta-data', 'http://2852039166/latest/meta-data', 'http://0xa9.0xfe.0xa9.0xfe/',
      'http://0251.0376.0251.0376/', 'http://169.254.170.2/v2/credentials', 'http://100.100.100.200/latest/meta-data',
      'http://[fd00:ec2::254]/latest/meta-data', 'http://[::ffff:169.254.169.254]/', 'http://[::169.254.169.254]/',
      'http://[64:ff9b::169.254.169.254]/', 'http://[2002:a9fe:a9fe::]/',
    ];
    for (const url of metadata) {
      const err = await refusal(createHook(t, url));
      assert.equal(err.code, 'URL_NOT_ALLOWED', url);
      assert.match(err.message, /metadata/, url);
    }
    assert.equal((await t.api.call('listWebhooks', { params: { workspaceId: t.workspaceId } })).data.length, 1);
  } finally {
    if (server) assert.equal(await server.stop(), 0);
    await receiver.close();
  }
});
