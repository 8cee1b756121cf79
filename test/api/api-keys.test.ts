// docs/api.md, Access: API keys (X-API-Key), shown once, bound to one workspace, limited by scopes and by
// their creator's role.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addMember, apiKey, client, eventually, fails, idPattern, ISO_MS, rawFails, succeeds, team, unique } from '../helpers/api.js';

test('creating a key answers 201 with the key itself, once: hop_live_ + 32 base62', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const res = await succeeds(t.api, 'createApiKey', { params, body: { name: 'CI deploys', scopes: ['links:write', 'links:read', 'links:write'] } });
  assert.equal(res.status, 201);
  const created = res.body.data;
  assert.match(created.key, /^hop_live_[0-9A-Za-z]{32}$/);
  assert.match(created.id, idPattern('key'));
  assert.equal(created.name, 'CI deploys');
  assert.deepEqual([...created.scopes].sort(), ['links:read', 'links:write']);
  assert.equal(created.workspaceId, t.workspaceId);
  assert.equal(created.createdBy, t.userId);
  assert.equal(created.lastUsedAt, null);
  assert.match(created.createdAt, ISO_MS);
  assert.ok(created.key.startsWith(created.prefix), 'the prefix is the start of the key');
  assert.ok(created.prefix.length < created.key.length);

  const list = await succeeds(t.api, 'listApiKeys', { params });
  assert.equal(list.body.data.length, 1);
  const listed = list.body.data[0];
  assert.equal(listed.id, created.id);
  assert.equal('key' in listed, false, 'the key is shown only at creation');
  assert.ok(!JSON.stringify(list.body).includes(created.key));
  const { key: _key, ...rest } = created;
  assert.deepEqual(listed, rest);

  // Two keys never share a value.
  const other = await succeeds(t.api, 'createApiKey', { params, body: { name: 'other', scopes: ['links:read'] } });
  assert.notEqual(other.body.data.key, created.key);
});

test('key creation validates its body', async () => {
  const t = await team();
  const path = `/v1/workspaces/${t.workspaceId}/api-keys`;
  const bad: unknown[] = [
    { name: 'x' },
    { scopes: ['links:read'] },
    { name: 'x', scopes: [] },
    { name: 'x', scopes: ['links:admin'] },
    { name: 'x', scopes: ['LINKS:READ'] }, // scopes are case-sensitive
    { name: 'x', scopes: 'links:read' },
    { name: '', scopes: ['links:read'] },
    { name: 'n'.repeat(101), scopes: ['links:read'] },
    { name: 'x', scopes: ['links:read'], expiresIn: 3600 },
  ];
  for (const body of bad) await rawFails(t.api, 'POST', path, { body }, 'VALIDATION_ERROR');
});

test('a key works through X-API-Key; lastUsedAt is set after use', async () => {
  const t = await team();
  const key = await apiKey(t, ['links:read', 'links:write', 'keys:manage']);
  const { data: link } = await key.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/by-key' } });
  assert.equal(link.createdBy, t.userId, 'a key acts as its creator');
  const used = await eventually(async () => {
    const { data } = await t.api.call('listApiKeys', { params: { workspaceId: t.workspaceId } });
    return data.find((k) => k.id === key.id && k.lastUsedAt !== null);
  }, 10_000, 'lastUsedAt to be set');
  assert.match(String(used.lastUsedAt), ISO_MS);
  assert.ok(Math.abs(new Date(String(used.lastUsedAt)).getTime() - Date.now()) < 120_000);
  // A key in the Authorization header is refused with a hint.
  const err = await fails(client({ token: key.key }), 'getMe', {}, 'UNAUTHORIZED', 401);
  assert.match(err.message, /X-API-Key/);
});

test('a revoked key answers 401 from then on', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const key = await apiKey(t, ['links:read']);
  await succeeds(key.api, 'listLinks', { params });
  const res = await succeeds(t.api, 'deleteApiKey', { params: { ...params, keyId: key.id } });
  assert.equal(res.body.data.id, key.id);
  assert.equal('key' in res.body.data, false);
  await fails(key.api, 'listLinks', { params }, 'UNAUTHORIZED', 401);
  await fails(key.api, 'getMe', {}, 'UNAUTHORIZED', 401);
  await fails(t.api, 'deleteApiKey', { params: { ...params, keyId: key.id } }, 'NOT_FOUND', 404);
  const list = await succeeds(t.api, 'listApiKeys', { params });
  assert.equal(list.body.data.length, 0);
});

test('a key is bound to its workspace: another workspace of the same user answers 404', async () => {
  const t = await team();
  const { data: second } = await t.api.call('createWorkspace', { body: { name: 'Second', slug: unique('ws-') } });
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: second.id }, body: { url: 'https://example.com/second' } });
  const all = ['links:read', 'links:write', 'workspace:read', 'workspace:write', 'keys:manage', 'workspaces:read'] as const;
  const key = await apiKey(t, [...all]);
  const params = { workspaceId: second.id };
  await fails(key.api, 'getWorkspace', { params }, 'NOT_FOUND', 404);
  await fails(key.api, 'listLinks', { params }, 'NOT_FOUND', 404);
  await fails(key.api, 'createLink', { params, body: { url: 'https://example.com/x' } }, 'NOT_FOUND', 404);
  await fails(key.api, 'getLink', { params: { ...params, linkId: link.id } }, 'NOT_FOUND', 404);
  await fails(key.api, 'updateLinkById', { params: { linkId: link.id }, body: { title: 'nope' } }, 'NOT_FOUND', 404);
  await fails(key.api, 'listApiKeys', { params }, 'NOT_FOUND', 404);
  await fails(key.api, 'createApiKey', { params, body: { name: 'escalate', scopes: ['links:read'] } }, 'NOT_FOUND', 404);
  // Its own workspace works.
  await succeeds(key.api, 'getWorkspace', { params: { workspaceId: t.workspaceId } });
  // Keys of another workspace cannot be revoked through this one either.
  const otherKey = await succeeds(t.api, 'createApiKey', { params, body: { name: 'second', scopes: ['links:read'] } });
  await fails(t.api, 'deleteApiKey', { params: { workspaceId: t.workspaceId, keyId: otherKey.body.data.id } }, 'NOT_FOUND', 404);
});

test('scopes are enforced: 403 INSUFFICIENT_SCOPE with requiredScope and grantedScopes', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const reader = await apiKey(t, ['links:read']);
  const e1 = await fails(reader.api, 'createLink', { params, body: { url: 'https://example.com/' } }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e1.details.requiredScope, 'links:write');
  assert.deepEqual(e1.details.grantedScopes, ['links:read']);
  await succeeds(reader.api, 'listLinks', { params });

  const writer = await apiKey(t, ['links:write']);
  const { data: link } = await writer.api.call('createLink', { params, body: { url: 'https://example.com/w' } });
  const e2 = await fails(writer.api, 'listLinks', { params }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e2.details.requiredScope, 'links:read');
  await fails(writer.api, 'getLink', { params: { ...params, linkId: link.id } }, 'INSUFFICIENT_SCOPE', 403);
  const e3 = await fails(writer.api, 'listApiKeys', { params }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e3.details.requiredScope, 'keys:manage');
  await fails(writer.api, 'createApiKey', { params, body: { name: 'more', scopes: ['keys:manage'] } }, 'INSUFFICIENT_SCOPE', 403);
  await fails(writer.api, 'deleteApiKey', { params: { ...params, keyId: writer.id } }, 'INSUFFICIENT_SCOPE', 403);
  await succeeds(writer.api, 'updateLinkById', { params: { linkId: link.id }, body: { title: 'ok' } });
  await succeeds(writer.api, 'deleteLink', { params: { ...params, linkId: link.id } });

  // keys:manage lets a key manage keys, never grant a scope it does not hold (docs/api.md, Access).
  const manager = await apiKey(t, ['keys:manage']);
  const e4 = await fails(manager.api, 'createApiKey', { params, body: { name: 'made by key', scopes: ['links:read'] } }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e4.details.requiredScope, 'links:read');
  const made = await succeeds(manager.api, 'createApiKey', { params, body: { name: 'made by key', scopes: ['keys:manage'] } });
  await succeeds(manager.api, 'deleteApiKey', { params: { ...params, keyId: made.body.data.id } });
});

test("a key never has more power than its creator's role", async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const member = await addMember(t, 'member');
  const { data: created } = await member.api.call('createApiKey', {
    params, body: { name: 'member key', scopes: ['workspace:write', 'workspace:read', 'links:write', 'links:read', 'keys:manage'] },
  });
  const key = client({ apiKey: created.key });
  const e1 = await fails(key, 'updateWorkspace', { params, body: { name: 'taken over' } }, 'FORBIDDEN', 403);
  assert.equal(e1.details.requiredRole, 'owner');
  const e2 = await fails(key, 'createInvite', { params, body: { email: 'friend@example.test', role: 'admin' } }, 'FORBIDDEN', 403);
  assert.equal(e2.details.requiredRole, 'admin');
  const e3 = await fails(key, 'deleteWorkspace', { params }, 'FORBIDDEN', 403);
  assert.equal(e3.details.requiredRole, 'owner');
  // The owner's links are out of the member's reach, by key as by session.
  const { data: ownersLink } = await t.api.call('createLink', { params, body: { url: 'https://example.com/owner' } });
  const e4 = await fails(key, 'updateLink', { params: { ...params, linkId: ownersLink.id }, body: { title: 'mine now' } }, 'FORBIDDEN', 403);
  assert.equal(e4.details.requiredRole, 'admin');
  await fails(key, 'deleteLink', { params: { ...params, linkId: ownersLink.id } }, 'FORBIDDEN', 403);
  // Its own links it may change.
  const { data: own } = await key.call('createLink', { params, body: { url: 'https://example.com/member' } });
  assert.equal(own.createdBy, member.userId);
  await succeeds(key, 'updateLink', { params: { ...params, linkId: own.id }, body: { title: 'mine' } });

  // Demoting the creator demotes the key.
  await t.api.call('updateMember', { params: { ...params, userId: member.userId }, body: { role: 'viewer' } });
  await fails(key, 'createLink', { params, body: { url: 'https://example.com/after' } }, 'FORBIDDEN', 403);
  await succeeds(key, 'listLinks', { params });
});

test('members list and revoke their own keys; admins see and revoke all', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const member = await addMember(t, 'member');
  const admin = await addMember(t, 'admin');
  const ownerKey = await apiKey(t, ['links:read'], 'owner key');
  const { data: memberKey } = await member.api.call('createApiKey', { params, body: { name: 'member key', scopes: ['links:read'] } });

  const seenByMember = await succeeds(member.api, 'listApiKeys', { params });
  assert.deepEqual(seenByMember.body.data.map((k) => k.id), [memberKey.id]);
  const seenByAdmin = await succeeds(admin.api, 'listApiKeys', { params });
  assert.deepEqual(seenByAdmin.body.data.map((k) => k.id).sort(), [ownerKey.id, memberKey.id].sort());

  const e = await fails(member.api, 'deleteApiKey', { params: { ...params, keyId: ownerKey.id } }, 'FORBIDDEN', 403);
  assert.equal(e.details.requiredRole, 'admin');
  await succeeds(admin.api, 'deleteApiKey', { params: { ...params, keyId: memberKey.id } });
  await fails(client({ apiKey: memberKey.key }), 'getMe', {}, 'UNAUTHORIZED', 401);
  await rawFails(t.api, 'DELETE', `/v1/workspaces/${t.workspaceId}/api-keys/not-a-key`, {}, 'VALIDATION_ERROR');
});
