import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { API_URL, apiKey, signup, team } from '../helpers/api.js';
import { hopSession } from './run-hop.js';

interface WhoamiResult {
  user: { id: string; email: string };
  apiUrl: string;
  workspace: string | null;
  workspaceSlug: string | null;
  credentialKind: 'api-key' | 'token';
  credentialSource: 'env' | 'config';
}

test('login --with-token with an API key verifies it, stores it and selects its workspace', async () => {
  const t = await team();
  const key = await apiKey(t, ['links:read', 'workspaces:read']);
  const hop = hopSession();
  const res = await hop.login(key.key);
  assert.equal(res.stdout, '', 'messages go to stderr, not stdout');
  assert.match(res.stderr, new RegExp(`Logged in to .* as ${t.email}`));
  const me = await hop.json<WhoamiResult>(['whoami']);
  assert.deepEqual(me, { user: me.user, apiUrl: API_URL, workspace: t.workspaceId, workspaceSlug: t.slug, credentialKind: 'api-key', credentialSource: 'config', scopes: null, expiresAt: null, usage: null });
  // usage: null because this key lacks workspace:read (GET .../usage)
  assert.equal(me.user.id, t.userId);
});

test('login --with-token with a session token; whoami prints user, server, workspace and kind', async () => {
  const t = await team();
  const hop = hopSession();
  await hop.login(`${t.token}\n`);
  // The user has exactly one workspace, so it becomes the default.
  const me = await hop.json<WhoamiResult>(['whoami']);
  assert.equal(me.credentialKind, 'token');
  assert.equal(me.workspace, t.workspaceId);
  const human = await hop.run(['whoami']);
  assert.equal(human.code, 0);
  for (const part of [t.email, API_URL, t.workspaceId, 'token']) assert.ok(human.stdout.includes(part), `whoami shows ${part}`);
});

test('the settings file is private (0600) and holds the credential', async () => {
  const t = await signup();
  const hop = hopSession();
  await hop.login(t.token);
  const file = join(hop.configDir, 'config.json');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).credential, t.token);
});

test('a bad credential is refused at login (exit 4) and nothing is stored', async () => {
  const hop = hopSession();
  const res = await hop.run(['login', '--with-token'], { input: 'hop_live_00000000000000000000000000000000' });
  assert.equal(res.code, 4);
  assert.match(res.stderr, /^Error: .*\(UNAUTHORIZED\)\n$/);
  assert.equal(res.stdout, '');
  assert.equal((await hop.run(['whoami'])).code, 4);
});

test('empty stdin for login --with-token is a usage error (exit 2)', async () => {
  const res = await hopSession().run(['login', '--with-token'], { input: '' });
  assert.equal(res.code, 2);
  assert.match(res.stderr, /^Error: no API key or token on stdin/);
});

test('login without --with-token and without a terminal is a usage error (exit 2)', async () => {
  const res = await hopSession().run(['login']);
  assert.equal(res.code, 2);
});

test('without any credential, commands exit 4 with one line on stderr', async () => {
  const hop = hopSession();
  for (const args of [['whoami'], ['workspaces', 'list'], ['links', 'list'], ['links', 'list', '-w', 'ws_0000000000000000000000']]) {
    const res = await hop.run(args);
    assert.equal(res.code, 4, args.join(' '));
    assert.equal(res.stdout, '');
    assert.equal(res.stderr.trim().split('\n').length, 1);
    assert.match(res.stderr, /^Error: not logged in/);
  }
});

test('logout forgets the credential (a session token is ended on the server too)', async () => {
  const t = await signup();
  const hop = hopSession();
  await hop.login(t.token);
  assert.deepEqual(await hop.json(['logout']), { apiUrl: API_URL, removed: true, revoked: true });
  assert.equal((await hop.run(['whoami'])).code, 4);
  assert.doesNotMatch(readFileSync(join(hop.configDir, 'config.json'), 'utf8'), /credential/);
});

test('HOP_API_KEY, HOP_WORKSPACE and HOP_API_URL override what is stored', async () => {
  const a = await team();
  const b = await team();
  const keyB = await apiKey(b, ['workspaces:read']);
  const hop = hopSession();
  await hop.login(a.token);
  const fromEnv = await hop.json<WhoamiResult>(['whoami'], { env: { HOP_API_KEY: keyB.key, HOP_WORKSPACE: b.workspaceId } });
  assert.equal(fromEnv.user.id, b.userId);
  assert.equal(fromEnv.credentialKind, 'api-key');
  assert.equal(fromEnv.credentialSource, 'env');
  assert.equal(fromEnv.workspace, b.workspaceId);
  // A server address from the environment wins over the stored one: nothing listens there.
  const unreachable = await hop.run(['whoami'], { env: { HOP_API_URL: 'http://127.0.0.1:9' } });
  assert.equal(unreachable.code, 1);
  assert.match(unreachable.stderr, /cannot reach http:\/\/127\.0\.0\.1:9.*NETWORK_ERROR/);
  const stored = await hop.json<WhoamiResult>(['whoami']);
  assert.equal(stored.user.id, a.userId);
});

test('login --api-url stores the server address for later commands', async () => {
  const t = await signup();
  const hop = hopSession();
  const res = await hop.run(['login', '--with-token', '--api-url', API_URL], { input: t.token, env: { HOP_API_URL: 'http://127.0.0.1:9' } });
  assert.equal(res.code, 0, res.stderr);
  assert.equal(JSON.parse(readFileSync(join(hop.configDir, 'config.json'), 'utf8')).apiUrl, API_URL);
  const me = await hop.json<WhoamiResult>(['whoami'], { env: { HOP_API_URL: undefined } });
  assert.equal(me.apiUrl, API_URL);
});
