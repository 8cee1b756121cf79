// Tags across a workspace: counts, rename (merging into an existing tag), delete, roles and scopes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addMember, apiKey, fails, succeeds, team, type Team } from '../helpers/api.js';

async function link(t: Team, tags: string[]) {
  const { data } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/', tags } });
  return data.id;
}

const tagsOf = async (t: Team, linkId: string) => (await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId } })).data.tags;

test('list: every tag in use with its link count, most used first', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  assert.deepEqual((await succeeds(t.api, 'listTags', { params })).body.data, []);
  await link(t, ['promo', 'q4']);
  await link(t, ['Promo']);
  await link(t, ['b-side', 'q4', 'promo']);
  await link(t, []);
  const { body } = await succeeds(t.api, 'listTags', { params });
  assert.deepEqual(body.data, [
    { name: 'promo', linkCount: 3 },
    { name: 'q4', linkCount: 2 },
    { name: 'b-side', linkCount: 1 },
  ]);
  // Another workspace's tags are not counted.
  const other = await team();
  await link(other, ['promo']);
  assert.equal((await succeeds(t.api, 'listTags', { params })).body.data[0].linkCount, 3);
});

test('rename: on every link, merging with the new name where a link has both, keeping order', async () => {
  const t = await team();
  const other = await team();
  const a = await link(t, ['old', 'x']);
  const b = await link(t, ['new', 'old', 'y']);
  const c = await link(t, ['y']);
  const foreign = await link(other, ['old']);
  const { body } = await succeeds(t.api, 'renameTag', { params: { workspaceId: t.workspaceId, name: 'OLD' }, body: { name: 'New' } });
  assert.deepEqual(body.data, { name: 'new', linkCount: 2 });
  assert.deepEqual(await tagsOf(t, a), ['new', 'x']);
  assert.deepEqual(await tagsOf(t, b), ['new', 'y']);
  assert.deepEqual(await tagsOf(t, c), ['y']);
  assert.deepEqual(await tagsOf(other, foreign), ['old'], 'other workspaces are untouched');
  const listed = await succeeds(t.api, 'listTags', { params: { workspaceId: t.workspaceId } });
  assert.deepEqual(listed.body.data.map((x) => x.name).sort(), ['new', 'x', 'y']);
  await fails(t.api, 'renameTag', { params: { workspaceId: t.workspaceId, name: 'old' }, body: { name: 'newer' } }, 'NOT_FOUND');
  await fails(t.api, 'renameTag', { params: { workspaceId: t.workspaceId, name: 'new' }, body: { name: '' } }, 'VALIDATION_ERROR');
  await fails(t.api, 'renameTag', { params: { workspaceId: t.workspaceId, name: 'new' }, body: { name: 'a', extra: 1 } as never }, 'VALIDATION_ERROR');
});

test('delete: removes the tag from every link; a tag no link has is 404', async () => {
  const t = await team();
  const a = await link(t, ['gone', 'stay']);
  const b = await link(t, ['gone']);
  const { body } = await succeeds(t.api, 'deleteTag', { params: { workspaceId: t.workspaceId, name: 'gone' } });
  assert.deepEqual(body.data, { name: 'gone', linkCount: 2 });
  assert.deepEqual(await tagsOf(t, a), ['stay']);
  assert.deepEqual(await tagsOf(t, b), []);
  await fails(t.api, 'deleteTag', { params: { workspaceId: t.workspaceId, name: 'gone' } }, 'NOT_FOUND');
  const tags = await succeeds(t.api, 'listLinks', { params: { workspaceId: t.workspaceId }, query: { tags: 'gone' } });
  assert.deepEqual(tags.body.data, []);
});

test('roles and scopes: viewers and tags:read list; only admins rename or delete; links:write is needed', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  await link(t, ['shared']);
  const viewer = await addMember(t, 'viewer');
  const member = await addMember(t, 'member');
  const admin = await addMember(t, 'admin');
  assert.equal((await succeeds(viewer.api, 'listTags', { params })).body.data.length, 1);
  const forbidden = await fails(member.api, 'renameTag', { params: { ...params, name: 'shared' }, body: { name: 'mine' } }, 'FORBIDDEN');
  assert.equal(forbidden.details.requiredRole, 'admin');
  await fails(member.api, 'deleteTag', { params: { ...params, name: 'shared' } }, 'FORBIDDEN');

  const noTags = await apiKey(t, ['links:read']);
  const scope = await fails(noTags.api, 'listTags', { params }, 'INSUFFICIENT_SCOPE');
  assert.equal(scope.details.requiredScope, 'tags:read');
  const reader = await apiKey(t, ['tags:read']);
  await succeeds(reader.api, 'listTags', { params });
  await fails(reader.api, 'deleteTag', { params: { ...params, name: 'shared' } }, 'INSUFFICIENT_SCOPE');

  await succeeds(admin.api, 'renameTag', { params: { ...params, name: 'shared' }, body: { name: 'renamed' } });
  const writer = await apiKey(t, ['links:write']);
  await succeeds(writer.api, 'deleteTag', { params: { ...params, name: 'renamed' } });

  const stranger = await team();
  await fails(stranger.api, 'listTags', { params }, 'NOT_FOUND');
});
