// Errors with a next step: a malformed HOP_API_URL, an unreachable server, a rate limit, server
// field names shown as the flags typed, and links named by slug wherever an id is taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHopClient } from '@hop/shared/client';
import { ADMIN_TOKEN, apiKey, team, unique } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { hopSession, runHop } from './run-hop.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { spendWindow } from '../helpers/rate-limit-window.js';

test('a malformed HOP_API_URL exits 2 naming the variable, before any request', async () => {
  for (const value of ['localhost:3000', 'htp://x', 'not a url']) {
    const res = await runHop(['links', 'list'], { env: { HOP_API_URL: value, HOP_API_KEY: 'hop_live_00000000000000000000000000000000' } });
    assert.equal(res.code, 2, value);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, new RegExp(`^Error: HOP_API_URL is not a server address: "${value}" \\(expected http\\(s\\)://host\\[:port\\]`));
  }
  const flag = await runHop(['login', '--with-token', '--api-url', 'example'], { input: 'x' });
  assert.equal(flag.code, 2);
  assert.match(flag.stderr, /--api-url is not a server address/);
});

test('an unreachable server is named with how to start one', async () => {
  const res = await runHop(['links', 'list', '--no-retry', '-w', 'ws_0000000000000000000000'], { env: { HOP_API_URL: 'http://127.0.0.1:9', HOP_API_KEY: 'hop_live_00000000000000000000000000000000' } });
  assert.equal(res.code, 1);
  assert.match(res.stderr, /cannot reach http:\/\/127\.0\.0\.1:9.*is the server running\? Start one with `npm start`.*HOP_API_URL.*\(NETWORK_ERROR\)/);
});

test('server field names are shown as the flags typed (--expires, --fg)', async () => {
  const t = await team();
  const hop = hopSession();
  await hop.login(t.token);
  const past = await hop.run(['links', 'create', 'https://example.com', '--expires', '2001-01-01T00:00:00Z']);
  assert.equal(past.code, 1);
  assert.match(past.stderr, /--expires/);
  assert.doesNotMatch(past.stderr, /expiresAt/);
  const link = await hop.json<{ id: string; slug: string }>(['links', 'create', 'https://example.com/qr']);
  const pale = await hop.run(['qr', 'create', link.slug, '--fg', '#ffffff', '--bg', '#ffffff']);
  assert.equal(pale.code, 1);
  assert.match(pale.stderr, /--fg|--bg/);
  assert.doesNotMatch(pale.stderr, /foregroundColor|backgroundColor/);
});

test('a slug is taken wherever a link id is: links get/update/delete, qr create/list/show; links tail --link <unknown> fails', async () => {
  const t = await team();
  const hop = hopSession();
  await hop.login(t.token);
  const slug = unique('s');
  const link = await hop.json<{ id: string }>(['links', 'create', 'https://example.com/slugged', '--slug', slug]);
  assert.equal((await hop.json<{ id: string }>(['links', 'get', slug])).id, link.id);
  assert.equal((await hop.json<{ title: string }>(['links', 'update', slug, '--title', 'By slug'])).title, 'By slug');
  const qr = await hop.json<{ id: string; linkId: string }>(['qr', 'create', slug]);
  assert.equal(qr.linkId, link.id);
  assert.deepEqual((await hop.json<{ id: string }[]>(['qr', 'list', slug])).map((q) => q.id), [qr.id]);
  assert.equal((await hop.json<{ id: string }>(['qr', 'show', slug])).id, qr.id);
  const tail = await hop.run(['links', 'tail', '--link', 'no-such-slug']);
  assert.equal(tail.code, 2);
  assert.match(tail.stderr, /no link with slug "no-such-slug"/);
  assert.equal((await hop.json<{ id: string }>(['links', 'delete', slug, '--yes'])).id, link.id);
});

test('a 429 says when the window resets and how an operator raises limits', { timeout: 60_000 }, async () => {
  const server = await startServer({ dataDir: scratchDir('hop-cli-429-'), env: { HOP_RATE_LIMIT_SCALE: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_TRUST_PROXY: '127.0.0.1' } });
  try {
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    const anon = createHopClient({ baseUrl: server.url });
    const signup = await anon.raw('POST', '/v1/auth/signup', { body: { email: `${unique('rl')}@example.test`, password: 'a long passphrase', name: 'R' }, headers: { 'x-forwarded-for': ip } });
    const token = (signup.body as { data: { token: string } }).data.token;
    const session = createHopClient({ baseUrl: server.url, token });
    const { data: ws } = await session.call('createWorkspace', { body: { name: 'R', slug: unique('ws-') } });
    const { data: key } = await session.call('createApiKey', { params: { workspaceId: ws.id }, body: { name: 'ci', scopes: ['links:read'] } });
    const api = createHopClient({ baseUrl: server.url, apiKey: key.key });
    // Windows of a real minute here: at least 10 s of the spent one left when the CLI starts.
    await spendWindow(api, `/v1/workspaces/${ws.id}/links`, 10_000);
    const res = await runHop(['links', 'list', '--no-retry', '-w', ws.id], { env: { HOP_API_URL: server.url, HOP_API_KEY: key.key } });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /the window resets at \d\d:\d\d:\d\d UTC\. An operator can raise the limits \(HOP_DEFAULT_PLAN .*admin API.*\(RATE_LIMIT_EXCEEDED\)/);
  } finally {
    await server.stop();
  }
});
