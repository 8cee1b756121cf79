// Every list pages the same way (docs/api.md, "Lists"): `pagination: {nextCursor, limit}`, limit
// 1-100 (default 20), and a cursor is decoded and checked in one place, so a forged one is a 400
// naming query.cursor, never a 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RouteName } from '@hop/shared';
import type { ListRouteName, RouteInput } from '@hop/shared/client';
import { addMember, apiKey, assertIssues, fails, succeeds, team, type Team, unique } from '../helpers/api.js';

const forge = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const FORGED = [
  'garbage!',
  forge('not json'),
  forge([]),
  forge({ t: 'not a date', id: 'lnk_0000000000000000' }),
  forge({ t: '0000-01-01T00:00:00.000Z', id: 'lnk_0000000000000000' }),
  forge({ t: '2026-01-01T00:00:00.000Z', id: "x'; drop table links; --" }),
  forge({ t: '2026-01-01T00:00:00.000Z', id: 'lnk_0000000000000000', extra: 1 }),
  forge({ n: -1, name: 'x' }),
  forge({ s: 'createdAt', o: 'desc', v: 'soon', id: 'lnk_0000000000000000' }),
  forge({ id: 'qr_0000000000000000', t: 5 }),
];

/** Every list route of a workspace, with what it needs. */
function lists(t: Team, extra: { linkId: string }): [ListRouteName, RouteInput<ListRouteName>][] {
  const params = { workspaceId: t.workspaceId };
  return [
    ['listWorkspaces', {}], ['listMembers', { params }], ['listInvites', { params }], ['listApiKeys', { params }],
    ['listDomains', { params }], ['listTags', { params }], ['listOAuthClients', { params }], ['listWebhooks', { params }],
    ['listLinks', { params }], ['listQrCodes', { params: { linkId: extra.linkId } }], ['listStreamResults', { params }],
  ] as [ListRouteName, RouteInput<ListRouteName>][];
}

test('a forged cursor on any list is 400 VALIDATION_ERROR naming query.cursor, never a 500', async () => {
  const t = await team('pro');
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/p' } });
  for (const [name, input] of lists(t, { linkId: link.id })) {
    for (const cursor of FORGED) {
      const query = { ...(input as { query?: object }).query, cursor };
      const err = await fails(t.api, name as RouteName, { ...input, query } as never, 'VALIDATION_ERROR');
      assert.deepEqual(assertIssues(err.details).map((i) => i.path), ['query.cursor'], `${name} with ${cursor}`);
    }
  }
});

test('every list answers pagination, and its pages walk the whole list once each', async () => {
  const t = await team('pro');
  const params = { workspaceId: t.workspaceId };
  for (let i = 0; i < 2; i++) await t.api.call('createWorkspace', { body: { name: `Another ${i}`, slug: `${t.slug}-${i}` } });
  await addMember(t, 'viewer');
  await addMember(t, 'member');
  for (const email of ['a@example.test', 'b@example.test', 'c@example.test']) {
    await t.api.call('createInvite', { params, body: { email, role: 'viewer' } });
  }
  for (let i = 0; i < 3; i++) await apiKey(t, ['links:read'], `key ${i}`);
  for (let i = 0; i < 3; i++) await t.api.call('addDomain', { params, body: { name: `${unique('d')}.example.test` } });
  const tags = [['x', 'y', 'z'], ['x', 'y'], ['x'], ['w']];
  for (const [i, tagsOf] of tags.entries()) {
    await t.api.call('createLink', { params, body: { url: `https://example.com/${i}`, tags: tagsOf } });
  }
  for (let i = 0; i < 3; i++) {
    await t.api.call('createOAuthClient', { params, body: { name: `client ${i}`, type: 'public', redirectUris: ['http://127.0.0.1:8000/cb'] } });
  }
  const { data: link } = await t.api.call('createLink', { params, body: { url: 'https://example.com/qr' } });
  for (let i = 0; i < 3; i++) await t.api.call('createQrCode', { params: { linkId: link.id }, body: {} });

  for (const [name, input] of lists(t, { linkId: link.id })) {
    if (name === 'listWebhooks' || name === 'listStreamResults') continue; // none made here: see webhooks.test.ts
    const all = await succeeds(t.api, name as RouteName, { ...input, query: { limit: 100 } } as never);
    const whole = (all.body as { data: unknown[] }).data;
    assert.ok(whole.length >= 3, `${name} has ${whole.length} elements`);
    const walked: unknown[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages <= whole.length; pages++) {
      const res = await succeeds(t.api, name as RouteName, { ...input, query: { limit: 2, cursor } } as never);
      const body = res.body as { data: unknown[]; pagination: { nextCursor: string | null; limit: number } };
      assert.deepEqual(Object.keys(body.pagination).sort(), ['limit', 'nextCursor']);
      assert.equal(body.pagination.limit, 2);
      walked.push(...body.data);
      cursor = body.pagination.nextCursor ?? undefined;
      if (!cursor) break;
    }
    assert.deepEqual(walked, whole, `${name}: pages of 2 walk the list as one page of 100 does`);
    const firstPage = await succeeds(t.api, name as RouteName, input as never);
    assert.equal((firstPage.body as { pagination: { limit: number } }).pagination.limit, 20, `${name}: default limit`);
  }
  // The client's paginate() follows the cursors too.
  const { data: paged, nextCursor } = await t.api.paginate('listTags', { params, query: { limit: 1 } });
  assert.deepEqual(paged.map((g) => [g.name, g.linkCount]), [['x', 3], ['y', 2], ['w', 1], ['z', 1]]);
  assert.equal(nextCursor, null);
  const two = await t.api.paginate('listTags', { params, query: { limit: 1 } }, { maxPages: 2 });
  assert.equal(two.data.length, 2);
  assert.ok(two.nextCursor);
});

test('limit outside 1-100 is refused on every list', async () => {
  const t = await team();
  for (const limit of [0, 101, -1]) {
    await fails(t.api, 'listTags', { params: { workspaceId: t.workspaceId }, query: { limit } }, 'VALIDATION_ERROR');
    await fails(t.api, 'listWorkspaces', { query: { limit } }, 'VALIDATION_ERROR');
  }
});
