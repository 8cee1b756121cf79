// docs/api.md, Access: workspaces (create, slug rules, rename, delete, list, get, members) and the operator's
// plan change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addMember, ADMIN_TOKEN, anonymous, API_URL, apiKey, client, fails, idPattern, ISO_MS, rawFails, send, signup, succeeds, team, unique } from '../helpers/api.js';

test('creating a workspace answers 201; the creator is its owner and the plan is free', async () => {
  const account = await signup();
  const slug = unique('ws-');
  const res = await succeeds(account.api, 'createWorkspace', { body: { name: '  Acme Links  ', slug } });
  assert.equal(res.status, 201);
  const ws = res.body.data;
  assert.match(ws.id, idPattern('ws'));
  assert.equal(ws.slug, slug);
  assert.equal(ws.name, 'Acme Links');
  assert.equal(ws.role, 'owner');
  assert.equal(ws.plan, 'free');
  assert.match(ws.createdAt, ISO_MS);
  assert.deepEqual(Object.keys(ws).sort(), ['createdAt', 'id', 'name', 'plan', 'role', 'slug']);

  const members = await succeeds(account.api, 'listMembers', { params: { workspaceId: ws.id } });
  assert.equal(members.body.data.length, 1);
  assert.equal(members.body.data[0].userId, account.userId);
  assert.equal(members.body.data[0].email, account.email);
  assert.equal(members.body.data[0].role, 'owner');
  assert.match(members.body.data[0].joinedAt, ISO_MS);
});

test('workspace slugs: 3-48 characters of [a-z0-9-]', async () => {
  const account = await signup();
  const good = [unique('a-').slice(0, 3), `${unique('x')}-${'9'.repeat(48)}`.slice(0, 48)];
  for (const slug of good) await succeeds(account.api, 'createWorkspace', { body: { name: 'ok', slug } });
  const bad = ['ab', 'a'.repeat(49), 'Upper-Case', 'under_score', 'with space', 'dot.ted', 'émoji', ''];
  for (const slug of bad) {
    const err = await fails(account.api, 'createWorkspace', { body: { name: 'bad', slug } }, 'VALIDATION_ERROR');
    assert.ok((err.details.issues as { path: string }[]).some((i) => i.path === 'slug'), `slug ${JSON.stringify(slug)} refused at slug`);
  }
  await rawFails(account.api, 'POST', '/v1/workspaces', { body: { name: 'no slug' } }, 'VALIDATION_ERROR');
  await rawFails(account.api, 'POST', '/v1/workspaces', { body: { slug: unique('ws-') } }, 'VALIDATION_ERROR');
  await rawFails(account.api, 'POST', '/v1/workspaces', { body: { name: 'x', slug: unique('ws-'), plan: 'pro' } }, 'VALIDATION_ERROR');
  await rawFails(account.api, 'POST', '/v1/workspaces', { body: { name: 42, slug: unique('ws-') } }, 'VALIDATION_ERROR');
  await rawFails(account.api, 'POST', '/v1/workspaces', { body: { name: 'n'.repeat(101), slug: unique('ws-') } }, 'VALIDATION_ERROR');
});

test('a taken workspace slug answers 400 SLUG_ALREADY_EXISTS with a suggestion that really is free', async () => {
  const t = await team();
  const other = await signup();
  const err = await fails(other.api, 'createWorkspace', { body: { name: 'Copycat', slug: t.slug } }, 'SLUG_ALREADY_EXISTS', 400);
  assert.equal(err.details.field, 'slug');
  assert.equal(err.details.value, t.slug);
  const suggestion = String(err.details.suggestion);
  assert.notEqual(suggestion, t.slug);
  assert.match(suggestion, /^[a-z0-9-]{3,48}$/, 'the suggestion is itself a valid slug');
  const { body } = await succeeds(other.api, 'createWorkspace', { body: { name: 'Copycat', slug: suggestion } });
  assert.equal(body.data.slug, suggestion);

  // A long slug still gets a valid suggestion (at most 48 characters).
  const long = `${unique('l')}${'x'.repeat(48)}`.slice(0, 48);
  await succeeds(t.api, 'createWorkspace', { body: { name: 'long', slug: long } });
  const err2 = await fails(other.api, 'createWorkspace', { body: { name: 'long', slug: long } }, 'SLUG_ALREADY_EXISTS', 400);
  assert.match(String(err2.details.suggestion), /^[a-z0-9-]{3,48}$/);
  await succeeds(other.api, 'createWorkspace', { body: { name: 'long', slug: String(err2.details.suggestion) } });
});

test('PATCH renames (owner only) and refuses to change the slug', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const renamed = await succeeds(t.api, 'updateWorkspace', { params, body: { name: 'Renamed' } });
  assert.equal(renamed.body.data.name, 'Renamed');
  assert.equal(renamed.body.data.slug, t.slug);
  const got = await succeeds(t.api, 'getWorkspace', { params });
  assert.equal(got.body.data.name, 'Renamed');

  const err = await rawFails(t.api, 'PATCH', `/v1/workspaces/${t.workspaceId}`, { body: { slug: 'new-slug-x' } }, 'VALIDATION_ERROR');
  assert.ok((err.details.issues as { path: string; message: string }[]).length > 0);
  await rawFails(t.api, 'PATCH', `/v1/workspaces/${t.workspaceId}`, { body: { name: 'Ok', slug: 'new-slug-x' } }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'PATCH', `/v1/workspaces/${t.workspaceId}`, { body: {} }, 'VALIDATION_ERROR');
  await rawFails(t.api, 'PATCH', `/v1/workspaces/${t.workspaceId}`, { body: { name: '' } }, 'VALIDATION_ERROR');
  assert.equal((await succeeds(t.api, 'getWorkspace', { params })).body.data.slug, t.slug);

  for (const role of ['admin', 'member', 'viewer'] as const) {
    const m = await addMember(t, role);
    const e = await fails(m.api, 'updateWorkspace', { params, body: { name: `by ${role}` } }, 'FORBIDDEN', 403);
    assert.equal(e.details.requiredRole, 'owner');
  }
  const stranger = await signup();
  const nf = await fails(stranger.api, 'updateWorkspace', { params, body: { name: 'hijack' } }, 'NOT_FOUND', 404);
  assert.equal(nf.details.resource, 'workspace');
});

test('list answers every workspace of the caller with its role; get answers one', async () => {
  const t = await team();
  const other = await team();
  await addMember(other, 'viewer'); // noise
  const joined = await signup();
  // `joined` is a member of t's workspace and owns one of its own.
  const { data: invite } = await t.api.call('createInvite', { params: { workspaceId: t.workspaceId }, body: { email: joined.email, role: 'admin' } });
  await joined.api.call('acceptInvite', { params: { token: invite.token } });
  const own = await succeeds(joined.api, 'createWorkspace', { body: { name: 'Mine', slug: unique('ws-') } });

  const list = await succeeds(joined.api, 'listWorkspaces', {});
  const roles = Object.fromEntries(list.body.data.map((w) => [w.id, w.role]));
  assert.deepEqual(roles, { [t.workspaceId]: 'admin', [own.body.data.id]: 'owner' });

  const one = await succeeds(joined.api, 'getWorkspace', { params: { workspaceId: t.workspaceId } });
  assert.equal(one.body.data.role, 'admin');
  assert.equal(one.body.data.slug, t.slug);
  await fails(joined.api, 'getWorkspace', { params: { workspaceId: other.workspaceId } }, 'NOT_FOUND', 404);
  await fails(joined.api, 'listMembers', { params: { workspaceId: other.workspaceId } }, 'NOT_FOUND', 404);
  // A well-formed id that does not exist is a 404 too; a malformed one fails validation.
  await fails(joined.api, 'getWorkspace', { params: { workspaceId: 'ws_0000000000000000zzzz' } }, 'NOT_FOUND', 404);
  await rawFails(joined.api, 'GET', '/v1/workspaces/not-an-id', {}, 'VALIDATION_ERROR');
  await fails(anonymous, 'listWorkspaces', {}, 'UNAUTHORIZED', 401);
  await fails(anonymous, 'getWorkspace', { params: { workspaceId: t.workspaceId } }, 'UNAUTHORIZED', 401);
});

test('members list shows each member with role; viewers may read it', async () => {
  const t = await team();
  const viewer = await addMember(t, 'viewer');
  const member = await addMember(t, 'member');
  const { body } = await succeeds(viewer.api, 'listMembers', { params: { workspaceId: t.workspaceId } });
  const byUser = Object.fromEntries(body.data.map((m) => [m.userId, m.role]));
  assert.deepEqual(byUser, { [t.userId]: 'owner', [viewer.userId]: 'viewer', [member.userId]: 'member' });
});

test('delete: owner only; answers the workspace; its links are gone after', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const { data: link } = await t.api.call('createLink', { params, body: { url: 'https://example.com/doomed' } });
  const admin = await addMember(t, 'admin');
  const e = await fails(admin.api, 'deleteWorkspace', { params }, 'FORBIDDEN', 403);
  assert.equal(e.details.requiredRole, 'owner');
  const key = await apiKey(t, ['links:read', 'workspace:read']);
  await fails(key.api, 'deleteWorkspace', { params }, 'INSUFFICIENT_SCOPE', 403);

  const deleted = await succeeds(t.api, 'deleteWorkspace', { params });
  assert.equal(deleted.body.data.id, t.workspaceId);
  assert.equal(deleted.body.data.slug, t.slug);

  await fails(t.api, 'getWorkspace', { params }, 'NOT_FOUND', 404);
  await fails(t.api, 'getLink', { params: { ...params, linkId: link.id } }, 'NOT_FOUND', 404);
  await fails(t.api, 'updateLinkById', { params: { linkId: link.id }, body: { title: 'x' } }, 'NOT_FOUND', 404);
  await fails(admin.api, 'getWorkspace', { params }, 'NOT_FOUND', 404);
  // Its keys died with it.
  await fails(key.api, 'getMe', {}, 'UNAUTHORIZED', 401);
  const list = await succeeds(t.api, 'listWorkspaces', {});
  assert.equal(list.body.data.some((w) => w.id === t.workspaceId), false);
  // The short link no longer redirects.
  const visit = await fetch(`${API_URL}/${link.slug}`, { redirect: 'manual' });
  assert.equal(visit.status, 404);
  await fails(t.api, 'deleteWorkspace', { params }, 'NOT_FOUND', 404);
});

test('API keys cannot create workspaces (403), and see only their own workspace', async () => {
  const t = await team();
  const second = await succeeds(t.api, 'createWorkspace', { body: { name: 'Second', slug: unique('ws-') } });
  const key = await apiKey(t, ['workspaces:read', 'workspace:read', 'workspace:write', 'keys:manage', 'links:write', 'links:read']);
  const err = await fails(key.api, 'createWorkspace', { body: { name: 'By key', slug: unique('ws-') } }, 'FORBIDDEN', 403);
  assert.equal(typeof err.details, 'object');
  const list = await succeeds(key.api, 'listWorkspaces', {});
  assert.deepEqual(list.body.data.map((w) => w.id), [t.workspaceId]);
  await fails(key.api, 'getWorkspace', { params: { workspaceId: second.body.data.id } }, 'NOT_FOUND', 404);
});

test('scopes guard workspace routes for keys: workspaces:read, workspace:read, workspace:write', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const none = await apiKey(t, ['links:read']);
  const e1 = await fails(none.api, 'listWorkspaces', {}, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e1.details.requiredScope, 'workspaces:read');
  assert.deepEqual(e1.details.grantedScopes, ['links:read']);
  const e2 = await fails(none.api, 'getWorkspace', { params }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e2.details.requiredScope, 'workspace:read');
  const e3 = await fails(none.api, 'listMembers', { params }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e3.details.requiredScope, 'workspace:read');
  const e4 = await fails(none.api, 'updateWorkspace', { params, body: { name: 'x' } }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e4.details.requiredScope, 'workspace:write');

  const reader = await apiKey(t, ['workspace:read']);
  await succeeds(reader.api, 'getWorkspace', { params });
  await succeeds(reader.api, 'listMembers', { params });
  const writer = await apiKey(t, ['workspace:write']);
  const renamed = await succeeds(writer.api, 'updateWorkspace', { params, body: { name: 'Renamed by key' } });
  assert.equal(renamed.body.data.name, 'Renamed by key');
});

test('admin API: X-Admin-Token sets the plan; a missing or wrong token answers 401, a user who is not the operator 403', async () => {
  const t = await team();
  const path = `/v1/admin/workspaces/${t.workspaceId}`;
  await rawFails(anonymous, 'PATCH', path, { body: { plan: 'pro' } }, 'UNAUTHORIZED', 401);
  await rawFails(anonymous, 'PATCH', path, { body: { plan: 'pro' }, headers: { 'x-admin-token': `${ADMIN_TOKEN}x` } }, 'UNAUTHORIZED', 401);
  await rawFails(anonymous, 'PATCH', path, { body: { plan: 'pro' }, headers: { 'x-admin-token': 'short' } }, 'UNAUTHORIZED', 401);
  // A session, even the owner's, is not the operator (the run's first account is: test/run.mjs).
  await rawFails(t.api, 'PATCH', path, { body: { plan: 'pro' } }, 'FORBIDDEN', 403);
  assert.equal((await succeeds(t.api, 'getWorkspace', { params: { workspaceId: t.workspaceId } })).body.data.plan, 'free');

  const admin = client();
  const headers = { 'x-admin-token': ADMIN_TOKEN };
  const res = await succeeds(admin, 'adminUpdateWorkspace', { params: { workspaceId: t.workspaceId }, body: { plan: 'pro' }, headers });
  assert.equal(res.body.data.plan, 'pro');
  assert.equal(res.body.data.id, t.workspaceId);
  assert.equal(res.body.data.rateLimit, null);
  assert.equal((await succeeds(t.api, 'getWorkspace', { params: { workspaceId: t.workspaceId } })).body.data.plan, 'pro');

  const ent = await succeeds(admin, 'adminUpdateWorkspace', {
    params: { workspaceId: t.workspaceId }, body: { plan: 'enterprise', rateLimit: { perHour: 123456, perMinute: 4567 } }, headers,
  });
  assert.deepEqual(ent.body.data.rateLimit, { perHour: 123456, perMinute: 4567 });
  const list = await succeeds(t.api, 'listWorkspaces', {});
  assert.equal(list.body.data.find((w) => w.id === t.workspaceId)?.plan, 'enterprise');

  await rawFails(admin, 'PATCH', path, { body: { plan: 'platinum' }, headers }, 'VALIDATION_ERROR');
  await rawFails(admin, 'PATCH', path, { body: {}, headers }, 'VALIDATION_ERROR');
  await rawFails(admin, 'PATCH', path, { body: { plan: 'pro', extra: 1 }, headers }, 'VALIDATION_ERROR');
  await rawFails(admin, 'PATCH', path, { body: { plan: 'pro', rateLimit: { perHour: -1, perMinute: 1 } }, headers }, 'VALIDATION_ERROR');
  await fails(admin, 'adminUpdateWorkspace', { params: { workspaceId: 'ws_0000000000000000zzzz' }, body: { plan: 'pro' }, headers }, 'NOT_FOUND', 404);
  const res2 = await send(admin, 'adminUpdateWorkspace', { params: { workspaceId: t.workspaceId }, body: { plan: 'free', rateLimit: null }, headers });
  assert.equal(res2.status, 200);
  assert.equal((res2.body as { data: { rateLimit: unknown } }).data.rateLimit, null);
});
