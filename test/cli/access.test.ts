// hop keys, oauth-clients, members and invites against the test server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiKey, CreatedApiKey, CreatedInvite, CreatedOAuthClient, Invite, Member, OAuthClient, Workspace } from '@hop/shared';
import { client, signup, team } from '../helpers/api.js';
import { hopSession } from './run-hop.js';

test('hop keys create prints the key once (--json for CI secret stores), list never shows it, revoke ends it', async () => {
  const t = await team();
  const hop = hopSession();
  await hop.login(t.token);
  const created = await hop.json<CreatedApiKey>(['keys', 'create', '--name', 'ci', '--scope', 'links:read', '--scope', 'workspaces:read']);
  assert.match(created.key, /^hop_live_/);
  assert.deepEqual(created.scopes, ['links:read', 'workspaces:read']);
  const piped = await hop.run(['keys', 'create', '--name', 'plain', '--scope', 'links:read']);
  assert.match(piped.stdout, /^hop_live_[0-9A-Za-z]{32}\n$/, 'piped: the key alone on stdout');
  const list = await hop.json<ApiKey[]>(['keys', 'list']);
  assert.equal(list.length, 2);
  assert.ok(!JSON.stringify(list).includes(created.key));
  assert.equal((await hop.run(['keys', 'revoke', created.id])).code, 2, 'no --yes off a terminal');
  await hop.json(['keys', 'delete', created.id, '--yes']);
  await assert.rejects(client({ apiKey: created.key }).call('getMe', {}), { code: 'UNAUTHORIZED' });
});

test('hop oauth-clients create|list|regenerate-secret|delete', async () => {
  const t = await team();
  const hop = hopSession();
  await hop.login(t.token);
  const c = await hop.json<CreatedOAuthClient>(['oauth-clients', 'create', '--name', 'Zapier', '--redirect-uri', 'https://zapier.example.test/cb']);
  assert.match(c.clientSecret!, /^hopcs_/);
  const pub = await hop.json<CreatedOAuthClient>(['oauth-clients', 'create', '--name', 'Desktop', '--type', 'public', '--redirect-uri', 'http://127.0.0.1/cb']);
  assert.equal(pub.clientSecret, null);
  const list = await hop.json<OAuthClient[]>(['oauth-clients', 'list']);
  assert.deepEqual(list.map((x) => x.name), ['Zapier', 'Desktop']);
  const again = await hop.json<CreatedOAuthClient>(['oauth-clients', 'regenerate-secret', c.clientId]);
  assert.notEqual(again.clientSecret, c.clientSecret);
  const bad = await hop.run(['oauth-clients', 'create', '--name', 'x', '--redirect-uri', 'http://evil.example.test/cb']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /VALIDATION_ERROR/);
  await hop.json(['oauth-clients', 'delete', pub.clientId, '--yes']);
  assert.equal((await hop.json<OAuthClient[]>(['oauth-clients', 'list'])).length, 1);
});

test('hop invites create|list|revoke|accept and hop members list|update|remove', async () => {
  const t = await team();
  const owner = hopSession();
  await owner.login(t.token);
  const ada = await signup();
  const invite = await owner.json<CreatedInvite>(['invites', 'create', ada.email, '--role', 'viewer']);
  assert.match(invite.token, /^hopinv_/);
  const spare = await owner.json<CreatedInvite>(['invites', 'create', 'someone@example.test']);
  assert.equal(spare.role, 'member');
  assert.equal((await owner.json<Invite[]>(['invites', 'list'])).length, 2);
  await owner.json(['invites', 'delete', spare.id]);
  assert.deepEqual((await owner.json<Invite[]>(['invites', 'list'])).map((i) => i.email), [ada.email]);

  const adaHop = hopSession();
  await adaHop.login(ada.token);
  const joined = await adaHop.json<Workspace>(['invites', 'accept', invite.acceptUrl]);
  assert.equal(joined.id, t.workspaceId);
  assert.equal(joined.role, 'viewer');

  const members = await owner.json<Member[]>(['members', 'list']);
  assert.deepEqual(members.map((m) => m.role).sort(), ['owner', 'viewer']);
  const promoted = await owner.json<Member>(['members', 'update', ada.email.toUpperCase(), '--role', 'admin']);
  assert.equal(promoted.role, 'admin');
  const lastOwner = await owner.run(['members', 'update', t.userId, '--role', 'member']);
  assert.equal(lastOwner.code, 1);
  assert.match(lastOwner.stderr, /last owner/);
  const removed = await owner.json<Member>(['members', 'remove', ada.email, '--yes']);
  assert.equal(removed.userId, ada.userId);
  assert.equal((await owner.json<Member[]>(['members', 'list'])).length, 1);
});
