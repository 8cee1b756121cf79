// docs/api.md, Links: changing links on both paths (PATCH /v1/workspaces/{ws}/links/{id} and
// PATCH /v1/links/{id}) and deleting them, with the role rules of docs/api.md, Access.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link } from '@hop/shared';
import { addMember, apiKey, client, fails, pause, rawFails, SHORT_DOMAIN, signup, succeeds, team, type Team, unique } from '../helpers/api.js';

const inAnHour = () => new Date(Date.now() + 3600e3).toISOString();

async function newLink(t: Team, body: Record<string, unknown> = {}): Promise<Link> {
  const { data } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/start', ...body } });
  return data;
}

for (const via of ['workspace path', 'link path'] as const) {
  const patch = (t: Team, link: Link, body: Record<string, unknown>) =>
    via === 'workspace path'
      ? succeeds(t.api, 'updateLink', { params: { workspaceId: t.workspaceId, linkId: link.id }, body })
      : succeeds(t.api, 'updateLinkById', { params: { linkId: link.id }, body });
  const patchFails = (t: Team, link: Link, body: Record<string, unknown>, code: Parameters<typeof fails>[3]) =>
    via === 'workspace path'
      ? fails(t.api, 'updateLink', { params: { workspaceId: t.workspaceId, linkId: link.id }, body }, code)
      : fails(t.api, 'updateLinkById', { params: { linkId: link.id }, body }, code);

  test(`update (${via}): any subset of fields changes; the rest stays; updatedAt moves`, async () => {
    const t = await team();
    const link = await newLink(t, { title: 'Before', description: 'Desc', tags: ['a'] });
    await pause(5);
    const { body } = await patch(t, link, { title: 'After' });
    const after = body.data;
    assert.equal(after.title, 'After');
    assert.equal(after.description, 'Desc');
    assert.deepEqual(after.tags, ['a']);
    assert.equal(after.url, link.url);
    assert.equal(after.slug, link.slug);
    assert.equal(after.id, link.id);
    assert.equal(after.createdAt, link.createdAt);
    assert.ok(after.updatedAt > link.updatedAt, `updatedAt moved: ${link.updatedAt} -> ${after.updatedAt}`);

    await pause(5);
    const expiresAt = inAnHour();
    const { body: b2 } = await patch(t, link, {
      url: 'https://example.org/new', description: 'New desc', tags: ['X', 'y'], expiresAt, maxClicks: 5,
      expiredUrl: 'https://example.org/gone',
    });
    assert.equal(b2.data.url, 'https://example.org/new');
    assert.equal(b2.data.title, 'After');
    assert.equal(b2.data.description, 'New desc');
    assert.deepEqual(b2.data.tags, ['x', 'y']);
    assert.equal(b2.data.expiresAt, expiresAt);
    assert.equal(b2.data.maxClicks, 5);
    assert.equal(b2.data.expiredUrl, 'https://example.org/gone');
    assert.ok(b2.data.updatedAt > after.updatedAt);
    const got = await succeeds(t.api, 'getLink', { params: { workspaceId: t.workspaceId, linkId: link.id } });
    assert.deepEqual(got.body.data, b2.data);
  });

  test(`update (${via}): null clears title, description, expiresAt, expiredUrl, maxClicks and password`, async () => {
    const t = await team('pro');
    const link = await newLink(t, {
      title: 'T', description: 'D', expiresAt: inAnHour(), expiredUrl: 'https://example.com/x', maxClicks: 3, password: 'a long password',
    });
    assert.equal(link.passwordProtected, true);
    const { body } = await patch(t, link, { title: null, description: null, expiresAt: null, expiredUrl: null, maxClicks: null, password: null });
    assert.equal(body.data.title, null);
    assert.equal(body.data.description, null);
    assert.equal(body.data.expiresAt, null);
    assert.equal(body.data.expiredUrl, null);
    assert.equal(body.data.maxClicks, null);
    assert.equal(body.data.passwordProtected, false);
    // Tags are cleared with [] (not null).
    const { body: b2 } = await patch(t, { ...link }, { tags: [] });
    assert.deepEqual(b2.data.tags, []);
    // Setting a password again (pro) protects it again.
    const { body: b3 } = await patch(t, link, { password: 'another long one' });
    assert.equal(b3.data.passwordProtected, true);
    assert.ok(!JSON.stringify(b3).includes('another long one'));
  });

  test(`update (${via}): utm fields merge into the url; null removes one`, async () => {
    const t = await team();
    const link = await newLink(t, { url: 'https://example.com/p?a=1', utmSource: 'news', utmMedium: 'email', utmCampaign: 'c1' });
    const { body } = await patch(t, link, { utmSource: 'ads', utmMedium: null });
    const u = new URL(body.data.url);
    assert.equal(u.searchParams.get('a'), '1');
    assert.deepEqual(u.searchParams.getAll('utm_source'), ['ads']);
    assert.equal(u.searchParams.has('utm_medium'), false);
    assert.equal(u.searchParams.get('utm_campaign'), 'c1');
    // A new url with utm fields: the fields apply to the new url.
    const { body: b2 } = await patch(t, link, { url: 'https://example.org/q?utm_campaign=old', utmCampaign: 'c2' });
    const u2 = new URL(b2.data.url);
    assert.equal(u2.host, 'example.org');
    assert.deepEqual(u2.searchParams.getAll('utm_campaign'), ['c2']);
  });

  test(`update (${via}): slug changes; a taken slug answers SLUG_ALREADY_EXISTS with a free suggestion`, async () => {
    const t = await team();
    const link = await newLink(t);
    const other = await newLink(t, { slug: unique('other-') });
    const slug = unique('renamed-');
    const { body } = await patch(t, link, { slug });
    assert.equal(body.data.slug, slug);
    assert.equal(body.data.shortUrl, `http://${SHORT_DOMAIN}/${slug}`);
    // Its own slug again is no clash.
    await patch(t, link, { slug });
    const err = await patchFails(t, link, { slug: other.slug }, 'SLUG_ALREADY_EXISTS');
    assert.equal(err.details.field, 'slug');
    assert.equal(err.details.value, other.slug);
    const suggestion = String(err.details.suggestion);
    assert.notEqual(suggestion, other.slug);
    const { body: b2 } = await patch(t, link, { slug: suggestion });
    assert.equal(b2.data.slug, suggestion);
    await patchFails(t, link, { slug: 'docs' }, 'VALIDATION_ERROR');
    await patchFails(t, link, { slug: 'Admin' }, 'VALIDATION_ERROR');
    await patchFails(t, link, { slug: 'bad slug' }, 'VALIDATION_ERROR');
  });

  test(`update (${via}): bad bodies are refused`, async () => {
    const t = await team();
    const link = await newLink(t);
    const bad: Record<string, unknown>[] = [
      {}, { titel: 'typo' }, { url: null }, { url: 'example.com' }, { url: 'javascript:alert(1)' }, { url: `http://${SHORT_DOMAIN}/loop` },
      { slug: null }, { tags: null }, { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, { title: 't'.repeat(257) },
      { description: 'd'.repeat(1025) }, { maxClicks: 0 }, { maxClicks: 'ten' }, { expiresAt: new Date(Date.now() - 1000).toISOString() },
      { expiresAt: 'soon' }, { clicks: 100 }, { domain: 'elsewhere.example' }, { passwordProtected: false },
    ];
    for (const body of bad) await patchFails(t, link, body, 'VALIDATION_ERROR');
    const path = via === 'workspace path' ? `/v1/workspaces/${t.workspaceId}/links/${link.id}` : `/v1/links/${link.id}`;
    await rawFails(t.api, 'PATCH', path, { rawBody: '{bad', headers: { 'content-type': 'application/json' } }, 'VALIDATION_ERROR');
    await rawFails(t.api, 'PATCH', path, { body: ['title'] }, 'VALIDATION_ERROR');
    // Nothing changed.
    const got = await succeeds(t.api, 'getLink', { params: { workspaceId: t.workspaceId, linkId: link.id } });
    assert.deepEqual(got.body.data, link);
    // A password on free: TIER_REQUIRED.
    const tier = await patchFails(t, link, { password: 'long enough pw' }, 'TIER_REQUIRED');
    assert.equal(tier.details.requiredPlan, 'pro');
    assert.equal(tier.details.currentPlan, 'free');
  });
}

test('update: members change only their own links, viewers none, admins and owners all', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const member = await addMember(t, 'member');
  const other = await addMember(t, 'member');
  const admin = await addMember(t, 'admin');
  const viewer = await addMember(t, 'viewer');
  const ownersLink = await newLink(t);
  const { data: membersLink } = await member.api.call('createLink', { params, body: { url: 'https://example.com/m' } });

  // Member: own yes, others' no, on both paths.
  await succeeds(member.api, 'updateLink', { params: { ...params, linkId: membersLink.id }, body: { title: 'mine' } });
  await succeeds(member.api, 'updateLinkById', { params: { linkId: membersLink.id }, body: { title: 'mine again' } });
  const e1 = await fails(member.api, 'updateLink', { params: { ...params, linkId: ownersLink.id }, body: { title: 'x' } }, 'FORBIDDEN', 403);
  assert.equal(e1.details.requiredRole, 'admin');
  const e2 = await fails(member.api, 'updateLinkById', { params: { linkId: ownersLink.id }, body: { title: 'x' } }, 'FORBIDDEN', 403);
  assert.equal(e2.details.requiredRole, 'admin');
  await fails(other.api, 'updateLink', { params: { ...params, linkId: membersLink.id }, body: { title: 'x' } }, 'FORBIDDEN', 403);

  // Viewer: no writes at all.
  const e3 = await fails(viewer.api, 'updateLink', { params: { ...params, linkId: membersLink.id }, body: { title: 'x' } }, 'FORBIDDEN', 403);
  assert.equal(e3.details.requiredRole, 'member');
  const e4 = await fails(viewer.api, 'updateLinkById', { params: { linkId: membersLink.id }, body: { title: 'x' } }, 'FORBIDDEN', 403);
  assert.equal(e4.details.requiredRole, 'member');

  // Admin and owner: every link.
  await succeeds(admin.api, 'updateLink', { params: { ...params, linkId: membersLink.id }, body: { title: 'by admin' } });
  await succeeds(admin.api, 'updateLinkById', { params: { linkId: ownersLink.id }, body: { title: 'by admin' } });
  const { body } = await succeeds(t.api, 'updateLinkById', { params: { linkId: membersLink.id }, body: { title: 'by owner' } });
  assert.equal(body.data.title, 'by owner');
  assert.equal(body.data.createdBy, member.userId, 'the creator stays');
});

test('update: links of another workspace answer 404 on both paths (never 403)', async () => {
  const t = await team();
  const stranger = await team();
  const link = await newLink(t);
  const e1 = await fails(stranger.api, 'updateLinkById', { params: { linkId: link.id }, body: { title: 'x' } }, 'NOT_FOUND', 404);
  assert.equal(e1.details.resource, 'link');
  await fails(stranger.api, 'updateLink', { params: { workspaceId: stranger.workspaceId, linkId: link.id }, body: { title: 'x' } }, 'NOT_FOUND', 404);
  await fails(stranger.api, 'updateLink', { params: { workspaceId: t.workspaceId, linkId: link.id }, body: { title: 'x' } }, 'NOT_FOUND', 404);
  await fails(t.api, 'updateLinkById', { params: { linkId: 'lnk_0000000000000000zzzz' }, body: { title: 'x' } }, 'NOT_FOUND', 404);
  // A key of another workspace of the same owner cannot reach it either.
  const { data: second } = await t.api.call('createWorkspace', { body: { name: 'Second', slug: unique('ws-') } });
  const { data: k } = await t.api.call('createApiKey', { params: { workspaceId: second.id }, body: { name: 'k', scopes: ['links:write'] } });
  await fails(client({ apiKey: k.key }), 'updateLinkById', { params: { linkId: link.id }, body: { title: 'x' } }, 'NOT_FOUND', 404);
  // Scope first: a key without links:write gets 403 INSUFFICIENT_SCOPE.
  const reader = await apiKey(t, ['links:read']);
  const e2 = await fails(reader.api, 'updateLinkById', { params: { linkId: link.id }, body: { title: 'x' } }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(e2.details.requiredScope, 'links:write');
  await fails((await signup()).api, 'updateLinkById', { params: { linkId: link.id }, body: { title: 'x' } }, 'NOT_FOUND', 404);
  const got = await succeeds(t.api, 'getLink', { params: { workspaceId: t.workspaceId, linkId: link.id } });
  assert.equal(got.body.data.title, null);
});

test('update: a future expiresAt, or null, makes an expired link active again', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const link = await newLink(t, { expiresAt: new Date(Date.now() + 2500).toISOString() });
  const deadline = Date.now() + 10_000;
  let status = link.status;
  while (status !== 'expired' && Date.now() < deadline) {
    await pause(50);
    status = (await t.api.call('getLink', { params: { ...params, linkId: link.id } })).data.status;
  }
  assert.equal(status, 'expired');
  const { body } = await succeeds(t.api, 'updateLink', { params: { ...params, linkId: link.id }, body: { expiresAt: inAnHour() } });
  assert.equal(body.data.status, 'active');
  const { body: b2 } = await succeeds(t.api, 'updateLink', { params: { ...params, linkId: link.id }, body: { expiresAt: null } });
  assert.equal(b2.data.status, 'active');
  assert.equal(b2.data.expiresAt, null);
});

test('delete: answers the deleted object, then 404; the slug is free again', async () => {
  const t = await team('pro');
  const params = { workspaceId: t.workspaceId };
  const link = await newLink(t, { slug: unique('del-'), title: 'Bye', tags: ['x'], password: 'secret password' });
  const { body } = await succeeds(t.api, 'deleteLink', { params: { ...params, linkId: link.id } });
  assert.equal(body.data.id, link.id);
  assert.deepEqual(body.data, link);
  assert.ok(!JSON.stringify(body).includes('secret password'));
  await fails(t.api, 'getLink', { params: { ...params, linkId: link.id } }, 'NOT_FOUND', 404);
  await fails(t.api, 'deleteLink', { params: { ...params, linkId: link.id } }, 'NOT_FOUND', 404);
  await fails(t.api, 'updateLinkById', { params: { linkId: link.id }, body: { title: 'x' } }, 'NOT_FOUND', 404);
  const list = await succeeds(t.api, 'listLinks', { params });
  assert.equal(list.body.data.some((l) => l.id === link.id), false);
  const again = await newLink(t, { slug: link.slug });
  assert.notEqual(again.id, link.id);
});

test('delete: members delete their own links only; viewers none; admins all; strangers 404', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const member = await addMember(t, 'member');
  const admin = await addMember(t, 'admin');
  const viewer = await addMember(t, 'viewer');
  const stranger = await team();
  const ownersLink = await newLink(t);
  const { data: membersLink } = await member.api.call('createLink', { params, body: { url: 'https://example.com/m' } });
  const { data: membersOther } = await member.api.call('createLink', { params, body: { url: 'https://example.com/m2' } });

  const e1 = await fails(member.api, 'deleteLink', { params: { ...params, linkId: ownersLink.id } }, 'FORBIDDEN', 403);
  assert.equal(e1.details.requiredRole, 'admin');
  const e2 = await fails(viewer.api, 'deleteLink', { params: { ...params, linkId: membersLink.id } }, 'FORBIDDEN', 403);
  assert.equal(e2.details.requiredRole, 'member');
  await fails(stranger.api, 'deleteLink', { params: { ...params, linkId: ownersLink.id } }, 'NOT_FOUND', 404);
  await fails(stranger.api, 'deleteLink', { params: { workspaceId: stranger.workspaceId, linkId: ownersLink.id } }, 'NOT_FOUND', 404);
  const key = await apiKey(t, ['links:read']);
  await fails(key.api, 'deleteLink', { params: { ...params, linkId: ownersLink.id } }, 'INSUFFICIENT_SCOPE', 403);

  await succeeds(member.api, 'deleteLink', { params: { ...params, linkId: membersLink.id } });
  await succeeds(admin.api, 'deleteLink', { params: { ...params, linkId: membersOther.id } });
  await succeeds(admin.api, 'deleteLink', { params: { ...params, linkId: ownersLink.id } });
  const list = await succeeds(t.api, 'listLinks', { params });
  assert.deepEqual(list.body.data, []);
});
