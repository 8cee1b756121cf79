// `hop account password`, `hop account apps` (and `revoke`), and `hop logout` ending a stored
// session on the server (docs/cli.md, Accounts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OAuthGrant } from '@hop/shared';
import { anonymous, client, fails, signup, succeeds, team } from '../helpers/api.js';
import { oauthTokens } from '../helpers/oauth.js';
import { hopSession } from './run-hop.js';
import { converseOnTerminal } from './pty.js';

test('hop account password --password-stdin changes the password and signs the other sessions out', async () => {
  const a = await signup();
  const hop = hopSession();
  const { data: other } = await anonymous.call('login', { body: { email: a.email, password: a.password } });
  await hop.login(a.token);
  const weak = await hop.run(['account', 'password', '--password-stdin'], { input: `${a.password}\npassword1\n` });
  assert.equal(weak.code, 1);
  assert.match(weak.stderr, /newPassword: .*most common passwords/);
  const oneLine = await hop.run(['account', 'password', '--password-stdin'], { input: `${a.password}\n` });
  assert.equal(oneLine.code, 2);
  assert.match(oneLine.stderr, /two lines/);
  const noTerminal = await hop.run(['account', 'password']);
  assert.equal(noTerminal.code, 2);

  const res = await hop.json<{ endedSessions: number }>(['account', 'password', '--password-stdin'], { input: `${a.password}\nchanged from the CLI\n` });
  assert.equal(res.endedSessions, 1);
  await fails(client({ token: other.token }), 'getMe', {}, 'UNAUTHORIZED');
  // The CLI's own session stays signed in.
  assert.equal((await hop.run(['whoami'])).code, 0);
  await anonymous.call('login', { body: { email: a.email, password: 'changed from the CLI' } });
});

test('hop account password on a terminal asks for the current and the new password, hidden', async () => {
  const a = await signup();
  const hop = hopSession();
  await hop.login(a.token);
  const res = await converseOnTerminal(['account', 'password'], [
    { waitFor: /Current password:/, type: `${a.password}\r` },
    { waitFor: /New password \(at least 8 characters\):/, type: 'typed at a terminal\r' },
    { waitFor: /New password again:/, type: 'typed at a terminal\r' },
  ], { env: { HOP_CONFIG_DIR: hop.configDir } });
  assert.equal(res.code, 0, res.output);
  assert.ok(!res.output.includes('typed at a terminal'), 'the password is not shown');
  await anonymous.call('login', { body: { email: a.email, password: 'typed at a terminal' } });
});

test('hop account apps lists connected apps; revoke ends one', async () => {
  const t = await team();
  const redirectUri = 'https://app.example.test/callback';
  const { data: app } = await t.api.call('createOAuthClient', { params: { workspaceId: t.workspaceId }, body: { name: 'Listed app', type: 'public', redirectUris: [redirectUri] } });
  const tokens = await oauthTokens(t, t.workspaceId, { clientId: app.clientId, redirectUri, scopes: ['links:read'] });
  const hop = hopSession();
  await hop.login(t.token);
  const table = await hop.run(['account', 'apps']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /Listed app/);
  assert.match(table.stdout, new RegExp(t.slug));
  const grants = await hop.json<OAuthGrant[]>(['account', 'apps']);
  assert.equal(grants.length, 1);
  const refused = await hop.run(['account', 'apps', 'revoke', grants[0].id]);
  assert.equal(refused.code, 2, 'not on a terminal: --yes is needed');
  const revoked = await hop.json<OAuthGrant>(['account', 'apps', 'revoke', grants[0].id, '--yes']);
  assert.equal(revoked.clientName, 'Listed app');
  await fails(client({ token: tokens.access_token }), 'listLinks', { params: { workspaceId: t.workspaceId } }, 'UNAUTHORIZED');
  assert.deepEqual(await hop.json(['account', 'apps']), []);
});

test('hop logout ends a stored session token on the server', async () => {
  const a = await signup();
  const hop = hopSession();
  await hop.login(a.token);
  const out = await hop.json<{ removed: boolean; revoked: boolean }>(['logout']);
  assert.deepEqual([out.removed, out.revoked], [true, true]);
  await fails(a.api, 'getMe', {}, 'UNAUTHORIZED');
  // hop signup's own session, too.
  const hop2 = hopSession();
  const email = `logout-${Date.now()}@example.test`;
  assert.equal((await hop2.run(['signup', '--email', email, '--name', 'L', '--password-stdin'], { input: 'logging out soon\n' })).code, 0);
  const { data: login } = await anonymous.call('login', { body: { email, password: 'logging out soon' } });
  const api = client({ token: login.token });
  assert.equal((await succeeds(api, 'listSessions', {})).body.data.length, 2);
  assert.equal((await hop2.run(['logout'])).code, 0);
  assert.equal((await succeeds(api, 'listSessions', {})).body.data.length, 1);
});
