import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiKey, team, unique, type Team } from '../helpers/api.js';
import { hopSession } from './run-hop.js';
import type { Link } from '@hop/shared';

// Pro: password protection needs it, and its rate limits leave room for a file of commands.
let t: Team;
let hop: ReturnType<typeof hopSession>;
before(async () => {
  t = await team('pro');
  hop = hopSession();
  await hop.login(t.token);
});

const minutesFromNow = (iso: string) => (Date.parse(iso) - Date.now()) / 60_000;

test('links create with every flag', async () => {
  const slug = unique('all-');
  const link = await hop.json<Link>([
    'links', 'create', 'https://example.com/page?x=1', '--slug', slug, '--title', 'A title', '--description', 'Some words',
    '--tag', 'Promo', '--tag', 'q4', '--expires', '2030-01-02T03:04:05Z', '--expired-url', 'https://example.com/gone',
    '--max-clicks', '5', '--password', 'open sesame', '--utm-source', 'newsletter', '--utm-medium', 'email', '--utm-campaign', 'launch',
  ]);
  assert.equal(link.slug, slug);
  assert.equal(link.title, 'A title');
  assert.equal(link.description, 'Some words');
  assert.deepEqual(link.tags, ['promo', 'q4']);
  assert.equal(link.expiresAt, '2030-01-02T03:04:05.000Z');
  assert.equal(link.expiredUrl, 'https://example.com/gone');
  assert.equal(link.maxClicks, 5);
  assert.equal(link.passwordProtected, true);
  const url = new URL(link.url);
  assert.equal(url.searchParams.get('x'), '1');
  assert.deepEqual(['utm_source', 'utm_medium', 'utm_campaign'].map((p) => url.searchParams.get(p)), ['newsletter', 'email', 'launch']);
});

test('--expires takes durations (30m, 2w) counted from now', async () => {
  const soon = await hop.json<Link>(['links', 'create', 'https://example.com/soon', '--expires', '30m']);
  assert.ok(Math.abs(minutesFromNow(soon.expiresAt!) - 30) < 2, soon.expiresAt!);
  const later = await hop.json<Link>(['links', 'create', 'https://example.com/later', '--expires', '2w']);
  assert.ok(Math.abs(minutesFromNow(later.expiresAt!) - 14 * 24 * 60) < 2, later.expiresAt!);
  const bad = await hop.run(['links', 'create', 'https://example.com/x', '--expires', 'next tuesday']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /neither an ISO time nor a duration/);
});

test('piped, links create prints only the short URL, and that URL redirects', async () => {
  const res = await hop.run(['links', 'create', 'https://example.com/landing']);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /^https?:\/\/[^\s]+\/[A-Za-z0-9_-]+\n$/);
  const visit = await fetch(res.stdout.trim(), { redirect: 'manual' });
  assert.equal(visit.status, 302);
  assert.equal(visit.headers.get('location'), 'https://example.com/landing');
});

test('the same --idempotency-key returns the first link', async () => {
  const key = `ci-${unique()}`;
  const first = await hop.json<Link>(['links', 'create', 'https://example.com/once', '--idempotency-key', key]);
  const again = await hop.json<Link>(['links', 'create', 'https://example.com/once', '--idempotency-key', key]);
  assert.equal(again.id, first.id);
});

test('--json prints exactly the data: links get matches the API', async () => {
  const created = await hop.json<Link>(['links', 'create', 'https://example.com/exact', '--title', 'exact']);
  const printed = await hop.run(['links', 'get', created.id, '--json']);
  assert.equal(printed.code, 0);
  const { data } = await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: created.id } });
  assert.deepEqual(JSON.parse(printed.stdout), data);
  assert.equal(printed.stderr, '');
  // Piped without --json: key<TAB>value lines.
  const plain = await hop.run(['links', 'get', created.id]);
  assert.ok(plain.stdout.split('\n').includes(`shortUrl\t${created.shortUrl}`));
});

test('links list: filters, search, pages and --all', async () => {
  const tag = unique('tag');
  const ids: string[] = [];
  // Made through the API: creation through the CLI is tested above, and each `hop` costs a process.
  for (const n of [1, 2, 3]) {
    const body = { url: `https://example.com/list/${n}`, tags: [tag], title: `pelican ${tag} ${n}` };
    ids.push((await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body })).data.id);
  }
  const tagged = await hop.json<Link[]>(['links', 'list', '--tag', tag]);
  assert.deepEqual(tagged.map((l) => l.id), [...ids].reverse(), 'newest first');
  const oldestFirst = await hop.json<Link[]>(['links', 'list', '--tag', tag, '--sort', 'createdAt', '--order', 'asc']);
  assert.deepEqual(oldestFirst.map((l) => l.id), ids);

  const page = await hop.run(['links', 'list', '--tag', tag, '--limit', '2', '--json']);
  assert.equal(JSON.parse(page.stdout).length, 2);
  const cursor = /--cursor (\S+)/.exec(page.stderr)?.[1];
  assert.ok(cursor, `a cursor on stderr: ${page.stderr}`);
  const rest = await hop.json<Link[]>(['links', 'list', '--tag', tag, '--limit', '2', '--cursor', cursor]);
  assert.deepEqual(rest.map((l) => l.id), [ids[0]]);
  const all = await hop.json<Link[]>(['links', 'list', '--tag', tag, '--limit', '1', '--all']);
  assert.deepEqual(all.map((l) => l.id), [...ids].reverse());

  const found = await hop.json<Link[]>(['links', 'list', '-q', `pelican ${tag} 2`]);
  assert.equal(found[0]?.id, ids[1]);
  assert.deepEqual(await hop.json(['links', 'list', '--tag', tag, '--tag', 'nope']), [], 'tags combine: all of them');
  assert.deepEqual(await hop.json(['links', 'list', '--tag', tag, '--created-after', '2099-01-01T00:00:00Z']), []);
  assert.equal((await hop.json<Link[]>(['links', 'list', '--tag', tag, '--created-after', '1h'])).length, 3);

  const plain = await hop.run(['links', 'list', '--tag', tag]);
  const lines = plain.stdout.trim().split('\n');
  assert.equal(lines.length, 3, 'piped: one line per link, no header');
  assert.deepEqual(lines.map((l) => l.split('\t')[0]), [...ids].reverse());
});

test('links update sets fields, and --clear-* / --no-password send null', async () => {
  const link = await hop.json<Link>([
    'links', 'create', 'https://example.com/before', '--title', 'T', '--description', 'D', '--tag', 'keep', '--expires', '7d',
    '--expired-url', 'https://example.com/gone', '--max-clicks', '9', '--password', 'open sesame', '--utm-source', 'nl',
  ]);
  const changed = await hop.json<Link>(['links', 'update', link.id, '--url', 'https://example.com/after', '--title', 'New', '--tag', 'x', '--tag', 'y']);
  assert.equal(changed.url, 'https://example.com/after');
  assert.equal(changed.title, 'New');
  assert.deepEqual(changed.tags, ['x', 'y']);
  assert.equal(changed.description, 'D');
  const cleared = await hop.json<Link>([
    'links', 'update', link.id, '--clear-title', '--clear-description', '--clear-tags', '--clear-expires', '--clear-expired-url',
    '--clear-max-clicks', '--no-password', '-w', t.slug,
  ]);
  assert.deepEqual(
    [cleared.title, cleared.description, cleared.tags, cleared.expiresAt, cleared.expiredUrl, cleared.maxClicks, cleared.passwordProtected],
    [null, null, [], null, null, null, false],
  );
  const withUtm = await hop.json<Link>(['links', 'update', link.id, '--utm-source', 'feed', '--utm-medium', 'rss']);
  assert.equal(new URL(withUtm.url).searchParams.get('utm_medium'), 'rss');
  const noUtm = await hop.json<Link>(['links', 'update', link.id, '--clear-utm-source']);
  assert.equal(new URL(noUtm.url).searchParams.get('utm_source'), null);
  assert.equal(new URL(noUtm.url).searchParams.get('utm_medium'), 'rss');

  assert.equal((await hop.run(['links', 'update', link.id])).code, 2, 'nothing to change');
  assert.equal((await hop.run(['links', 'update', link.id, '--title', 'a', '--clear-title'])).code, 2, 'set and clear together');
});

test('links delete needs --yes when not on a terminal', async () => {
  const link = await hop.json<Link>(['links', 'create', 'https://example.com/doomed']);
  const refused = await hop.run(['links', 'delete', link.id]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--yes/);
  assert.equal((await hop.json<Link>(['links', 'get', link.id])).id, link.id, 'still there');

  const deleted = await hop.json<Link>(['links', 'delete', link.id, '--yes']);
  assert.equal(deleted.id, link.id);
  const gone = await hop.run(['links', 'get', link.id, '--json']);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /^Error: .*\(NOT_FOUND\)\n$/);
  assert.equal(gone.stdout, '', 'under --json too, an error leaves stdout empty');
});

test('exit codes: 1 on API errors, 2 on usage errors', async () => {
  // A bare host gets https:// (test/cli/daily-use.test.ts); another scheme is the server's to refuse.
  const invalid = await hop.run(['links', 'create', 'ftp://example.com/no-http']);
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /^Error: <url>: .*\(VALIDATION_ERROR\)\n$/);
  assert.equal(invalid.stdout, '');
  for (const args of [['links', 'create'], ['links', 'list', '--bogus'], ['links', 'list', '--limit', '0'], ['links', 'list', '--sort', 'nope'], ['links', 'frobnicate']]) {
    const res = await hop.run(args);
    assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
  }
});

test('a key without links:write gets exit 1; -w takes a slug; a key without workspaces:read still selects its workspace', async () => {
  const reader = await apiKey(t, ['links:read', 'workspaces:read']);
  const keyed = hopSession();
  await keyed.login(reader.key);
  const denied = await keyed.run(['links', 'create', 'https://example.com/nope']);
  assert.equal(denied.code, 1);
  assert.match(denied.stderr, /\(INSUFFICIENT_SCOPE\)/);
  assert.ok(Array.isArray(await keyed.json(['links', 'list', '-w', t.slug])));

  // It cannot list workspaces, yet the key names its own (GET /api/v1/me): that is the default.
  const narrow = hopSession();
  await narrow.login((await apiKey(t, ['links:read'])).key);
  const res = await narrow.run(['links', 'list']);
  assert.equal(res.code, 0, res.stderr);
  assert.ok(Array.isArray(await narrow.json(['links', 'list'], { env: { HOP_WORKSPACE: t.workspaceId } })));
});
