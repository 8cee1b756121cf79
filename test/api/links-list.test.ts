// docs/api.md, Limits; Links: listing links — cursor pagination, limits, sorts, filters and full-text search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link, ListLinksQuery } from '@hop/shared';
import { apiKey, fails, pause, rawFails, SHORT_DOMAIN, succeeds, team, type Team, visit } from '../helpers/api.js';

async function makeLinks(t: Team, n: number, body: (i: number) => Record<string, unknown> = () => ({})): Promise<Link[]> {
  const items = Array.from({ length: n }, (_, i) => ({ url: `https://example.com/item/${i}`, ...body(i) }));
  const { data } = await t.api.call('bulkCreateLinks', { params: { workspaceId: t.workspaceId }, body: items });
  return data.map((r) => {
    assert.ok(r.success, JSON.stringify(r));
    return r.data;
  });
}

/** Every page of a list, following cursors; also checks each page's envelope. */
async function allPages(t: Team, query: ListLinksQuery) {
  const pages: Link[][] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const { body } = await succeeds(t.api, 'listLinks', { params: { workspaceId: t.workspaceId }, query: { ...query, cursor } });
    assert.equal(body.pagination.limit, query.limit ?? 20);
    assert.ok(body.data.length <= (query.limit ?? 20));
    pages.push(body.data);
    if (body.pagination.nextCursor === null) return pages;
    assert.equal(typeof body.pagination.nextCursor, 'string');
    cursor = body.pagination.nextCursor;
  }
  throw new Error('too many pages');
}

test('an empty workspace lists nothing, with a null cursor and the default limit 20', async () => {
  const t = await team();
  const { body } = await succeeds(t.api, 'listLinks', { params: { workspaceId: t.workspaceId } });
  assert.deepEqual(body.data, []);
  assert.deepEqual(body.pagination, { nextCursor: null, limit: 20 });
});

test('cursor pagination walks more than two pages without duplicates or gaps', async () => {
  const t = await team();
  const links = await makeLinks(t, 23);
  const other = await team();
  await makeLinks(other, 3); // other workspaces never leak in

  const pages = await allPages(t, { limit: 5 });
  assert.deepEqual(pages.map((p) => p.length), [5, 5, 5, 5, 3]);
  const ids = pages.flat().map((l) => l.id);
  assert.equal(new Set(ids).size, 23, 'no duplicates');
  assert.deepEqual([...ids].sort(), links.map((l) => l.id).sort(), 'no gaps, nothing foreign');
  // Default order: newest first.
  const created = pages.flat().map((l) => l.createdAt);
  assert.deepEqual(created, [...created].sort().reverse());

  // Default limit 20: two pages.
  const byDefault = await allPages(t, {});
  assert.deepEqual(byDefault.map((p) => p.length), [20, 3]);
  assert.deepEqual(byDefault.flat().map((l) => l.id), ids);

  // A page exactly full at the end has no next cursor.
  const exact = await allPages(t, { limit: 23 });
  assert.deepEqual(exact.map((p) => p.length), [23]);
});

test('limit must be 1-100', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  await makeLinks(t, 2);
  for (const limit of [0, 101, -1, 1.5]) {
    const err = await fails(t.api, 'listLinks', { params, query: { limit } }, 'VALIDATION_ERROR');
    assert.ok((err.details.issues as { path: string }[]).some((i) => /limit/.test(i.path)), `limit ${limit}`);
  }
  await rawFails(t.api, 'GET', `/v1/workspaces/${t.workspaceId}/links?limit=abc`, {}, 'VALIDATION_ERROR');
  const one = await succeeds(t.api, 'listLinks', { params, query: { limit: 1 } });
  assert.equal(one.body.data.length, 1);
  assert.equal(one.body.pagination.limit, 1);
  assert.notEqual(one.body.pagination.nextCursor, null);
  const hundred = await succeeds(t.api, 'listLinks', { params, query: { limit: 100 } });
  assert.equal(hundred.body.data.length, 2);
  assert.equal(hundred.body.pagination.limit, 100);
});

test('unknown query parameters, bad sorts and orders are refused', async () => {
  const t = await team();
  const base = `/v1/workspaces/${t.workspaceId}/links`;
  for (const qs of ['sort=title', 'order=up', 'pageSize=5', 'createdAfter=yesterday', 'sort=CREATEDAT', `q=${'x'.repeat(201)}`]) {
    await rawFails(t.api, 'GET', `${base}?${qs}`, {}, 'VALIDATION_ERROR');
  }
  // relevance needs a search.
  await rawFails(t.api, 'GET', `${base}?sort=relevance`, {}, 'VALIDATION_ERROR');
});

test('sort by createdAt, updatedAt and clicks, ascending and descending, across pages', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const links = await makeLinks(t, 7);
  // Touch links in a shuffled order so updatedAt differs from createdAt order.
  const touchOrder = [3, 0, 6, 1, 5, 2, 4];
  for (const i of touchOrder) {
    await pause(3);
    await t.api.call('updateLink', { params: { ...params, linkId: links[i].id }, body: { title: `touched ${i}` } });
  }
  const byUpdatedAsc = (await allPages(t, { sort: 'updatedAt', order: 'asc', limit: 3 })).flat();
  assert.deepEqual(byUpdatedAsc.map((l) => l.id), touchOrder.map((i) => links[i].id));
  const byUpdatedDesc = (await allPages(t, { sort: 'updatedAt', order: 'desc', limit: 3 })).flat();
  assert.deepEqual(byUpdatedDesc.map((l) => l.id), [...touchOrder].reverse().map((i) => links[i].id));

  const byCreatedAsc = (await allPages(t, { sort: 'createdAt', order: 'asc', limit: 2 })).flat();
  // Ties within a millisecond are broken by id in the database's collation: check the times only.
  const createdTimes = byCreatedAsc.map((l) => l.createdAt);
  assert.deepEqual(createdTimes, [...createdTimes].sort());
  assert.equal(new Set(byCreatedAsc.map((l) => l.id)).size, 7);
  const byCreatedDesc = (await allPages(t, { sort: 'createdAt', order: 'desc', limit: 2 })).flat();
  assert.deepEqual(byCreatedDesc.map((l) => l.id), [...byCreatedAsc].reverse().map((l) => l.id));

  // Clicks: all zero here; ties are broken consistently, so the walk is still complete.
  const byClicks = (await allPages(t, { sort: 'clicks', order: 'desc', limit: 2 })).flat();
  assert.equal(new Set(byClicks.map((l) => l.id)).size, 7);
  const byClicksAsc = (await allPages(t, { sort: 'clicks', order: 'asc', limit: 3 })).flat();
  assert.deepEqual(byClicksAsc.map((l) => l.id), [...byClicks].reverse().map((l) => l.id));
});

test('sort by clicks follows real visits', async () => {
  const t = await team();
  const links = await makeLinks(t, 3);
  const visits = [2, 0, 1];
  for (const [i, n] of visits.entries()) {
    for (let k = 0; k < n; k++) {
      const res = await visit(`/${links[i].slug}`);
      assert.equal(res.status, 302);
    }
  }
  const deadline = Date.now() + 10_000;
  let order: string[] = [];
  while (Date.now() < deadline) {
    const { data } = await t.api.call('listLinks', { params: { workspaceId: t.workspaceId }, query: { sort: 'clicks', order: 'desc' } });
    order = data.map((l) => `${l.id}:${l.clicks}`);
    if (data[0].clicks === 2 && data[1].clicks === 1) break;
    await pause(50);
  }
  assert.deepEqual(order, [`${links[0].id}:2`, `${links[2].id}:1`, `${links[1].id}:0`]);
});

test('a cursor from another sort or order, or a forged one, is refused with 400', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  await makeLinks(t, 3);
  const { body } = await succeeds(t.api, 'listLinks', { params, query: { limit: 1 } });
  const cursor = body.pagination.nextCursor!;
  await fails(t.api, 'listLinks', { params, query: { limit: 1, cursor, sort: 'updatedAt' } }, 'VALIDATION_ERROR');
  await fails(t.api, 'listLinks', { params, query: { limit: 1, cursor, sort: 'clicks' } }, 'VALIDATION_ERROR');
  await fails(t.api, 'listLinks', { params, query: { limit: 1, cursor, order: 'asc' } }, 'VALIDATION_ERROR');
  await fails(t.api, 'listLinks', { params, query: { limit: 1, cursor: 'garbage!' } }, 'VALIDATION_ERROR');
  await fails(t.api, 'listLinks', { params, query: { limit: 1, cursor: 'x'.repeat(600) } }, 'VALIDATION_ERROR');
  // A cursor that decodes but carries nonsense values is a bad cursor too, not a server error.
  const forge = (c: unknown) => Buffer.from(JSON.stringify(c)).toString('base64url');
  for (const c of [
    { s: 'createdAt', o: 'desc', v: 'not a date', id: 'lnk_x' },
    { s: 'createdAt', o: 'desc', v: { nested: true }, id: 'lnk_x' },
    { s: 'createdAt', o: 'desc' },
    { s: 'clicks', o: 'desc', v: 'many', id: 'lnk_x' },
    { s: 'relevance', o: 'desc', off: -5 },
    { s: 'relevance', o: 'desc', off: 'abc' },
  ]) {
    const query = c.s === 'relevance' ? { q: 'example', cursor: forge(c) } : { sort: c.s as 'clicks', cursor: forge(c) };
    await fails(t.api, 'listLinks', { params, query }, 'VALIDATION_ERROR');
  }
  // The same sort and order keeps working.
  const next = await succeeds(t.api, 'listLinks', { params, query: { limit: 1, cursor } });
  assert.equal(next.body.data.length, 1);
});

test('tags filter: a link must have all the tags named (any case)', async () => {
  const t = await team();
  const [a, b, c] = await makeLinks(t, 4, (i) => ({ tags: [['red', 'blue'], ['red'], ['red', 'blue', 'green'], []][i] }));
  const list = async (tags: string) => {
    const { body } = await succeeds(t.api, 'listLinks', { params: { workspaceId: t.workspaceId }, query: { tags } });
    return body.data.map((l) => l.id).sort();
  };
  assert.deepEqual(await list('red'), [a.id, b.id, c.id].sort());
  assert.deepEqual(await list('red,blue'), [a.id, c.id].sort());
  assert.deepEqual(await list('BLUE, Red'), [a.id, c.id].sort());
  assert.deepEqual(await list('red,blue,green'), [c.id]);
  assert.deepEqual(await list('purple'), []);
  assert.deepEqual(await list('red,purple'), []);
});

test('domain filter and createdAfter', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const [first] = await makeLinks(t, 1);
  await pause(5);
  const later = await makeLinks(t, 2);
  const byDomain = await succeeds(t.api, 'listLinks', { params, query: { domain: SHORT_DOMAIN } });
  assert.equal(byDomain.body.data.length, 3);
  const upper = await succeeds(t.api, 'listLinks', { params, query: { domain: SHORT_DOMAIN.toUpperCase() } });
  assert.equal(upper.body.data.length, 3);
  const none = await succeeds(t.api, 'listLinks', { params, query: { domain: 'other.example' } });
  assert.equal(none.body.data.length, 0);

  const after = await succeeds(t.api, 'listLinks', { params, query: { createdAfter: first.createdAt } });
  assert.deepEqual(after.body.data.map((l) => l.id).sort(), later.map((l) => l.id).sort(), 'strictly after');
  const all = await succeeds(t.api, 'listLinks', { params, query: { createdAfter: new Date(Date.now() - 3600e3).toISOString() } });
  assert.equal(all.body.data.length, 3);
  const future = await succeeds(t.api, 'listLinks', { params, query: { createdAfter: new Date(Date.now() + 3600e3).toISOString() } });
  assert.equal(future.body.data.length, 0);
});

test('q searches url, slug, title and description, ranked by relevance', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const word = `zebra${Date.now().toString(36)}`;
  const [inDescription, inTitle, inUrl, inSlug, unrelated] = await makeLinks(t, 5, (i) => [
    { title: 'Something else', description: `A page about the ${word} herd` },
    { title: `The ${word} report`, description: 'quarterly numbers' },
    { url: `https://example.com/animals/${word}` },
    { slug: `${word}-s` },
    { title: 'Giraffes', description: 'tall' },
  ][i]);
  const search = async (q: string, extra: ListLinksQuery = {}) =>
    (await succeeds(t.api, 'listLinks', { params, query: { q, ...extra } })).body.data;

  const found = await search(word);
  const ids = found.map((l) => l.id);
  assert.deepEqual([...ids].sort(), [inDescription.id, inTitle.id, inUrl.id, inSlug.id].sort());
  assert.ok(!ids.includes(unrelated.id));
  assert.ok(ids.indexOf(inTitle.id) < ids.indexOf(inDescription.id), 'a title match ranks above a description-only match');

  // Case does not matter; other words narrow; a prefix finds.
  assert.equal((await search(word.toUpperCase())).length, 4);
  assert.deepEqual((await search(`${word} report`)).map((l) => l.id), [inTitle.id]);
  assert.deepEqual((await search('giraffe')).map((l) => l.id), [unrelated.id]);
  assert.equal((await search('nothing-matches-this-xyzzy')).length, 0);

  // Relevance pages with a cursor too.
  const p1 = await succeeds(t.api, 'listLinks', { params, query: { q: word, limit: 3 } });
  assert.equal(p1.body.data.length, 3);
  const p2 = await succeeds(t.api, 'listLinks', { params, query: { q: word, limit: 3, cursor: p1.body.pagination.nextCursor! } });
  assert.equal(p2.body.data.length, 1);
  assert.equal(p2.body.pagination.nextCursor, null);
  assert.equal(new Set([...p1.body.data, ...p2.body.data].map((l) => l.id)).size, 4);
  // An explicit other sort applies to the matches.
  const byCreated = await search(word, { sort: 'createdAt', order: 'asc' });
  assert.deepEqual(byCreated.map((l) => l.id), [inDescription.id, inTitle.id, inUrl.id, inSlug.id]);
  // A whole slug finds its link even when english would stem it ("stats" → "stat") and a hex
  // part reads as a number ("7e5…"): this one once made `hop analytics <slug>` fail in CI.
  const [stats] = await makeLinks(t, 1, () => ({ slug: `stats-7e5e6c70b8${word}` }));
  assert.deepEqual((await search(stats.slug)).map((l) => l.id), [stats.id]);
  // Punctuation-only searches do not crash.
  for (const q of ['!!!', '"', "'", '&|!', ':*', '()']) {
    const res = await t.api.raw('GET', `/v1/workspaces/${t.workspaceId}/links?q=${encodeURIComponent(q)}`);
    assert.ok(res.status === 200 || res.status === 400, `q=${q} answered ${res.status}: ${res.text.slice(0, 200)}`);
  }
});

test('listing needs links:read; viewers may list', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const key = await apiKey(t, ['links:write']);
  const err = await fails(key.api, 'listLinks', { params }, 'INSUFFICIENT_SCOPE', 403);
  assert.equal(err.details.requiredScope, 'links:read');
  const reader = await apiKey(t, ['links:read']);
  await succeeds(reader.api, 'listLinks', { params });
});
