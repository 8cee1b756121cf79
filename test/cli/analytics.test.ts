import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Analytics, Link } from '@hop/shared';
import { BROWSER_UA, eventually, team, unique, visit, type Team } from '../helpers/api.js';
import { barChart } from '../../cli/src/render.js';
import { hopSession } from './run-hop.js';

const today = () => new Date().toISOString().slice(0, 10);

// One link with four human visits (two by one visitor in the US, two in GB) and a bot, counted
// before any test runs: the CLI only reads.
let t: Team;
let hop: ReturnType<typeof hopSession>;
let link: Link;
before(async () => {
  t = await team();
  hop = hopSession();
  await hop.login(t.token);
  await hop.run(['workspaces', 'use', t.slug]);
  ({ data: link } = await t.api.call('createLink', {
    params: { workspaceId: t.workspaceId },
    body: { url: 'https://example.com/analytics', slug: unique('stats-') },
  }));
  const visits = [
    { ua: BROWSER_UA.desktopChrome, ip: '8.8.8.8', referer: 'https://www.google.com/search?q=hop' },
    { ua: BROWSER_UA.desktopChrome, ip: '8.8.8.8' },
    { ua: BROWSER_UA.iphoneSafari, ip: '81.2.69.142', referer: 'https://t.co/xyz' },
    { ua: BROWSER_UA.ipad, ip: '81.2.69.142' },
    { ua: BROWSER_UA.googlebot, ip: '66.249.66.1' },
  ];
  for (const v of visits) assert.equal((await visit(link.shortUrl, v)).status, 302);
  const params = { workspaceId: t.workspaceId, linkId: link.id };
  await eventually(async () => ((await t.api.call('getLinkAnalytics', { params })).data.totalClicks === 4 ? true : undefined), 5000, '4 counted clicks');
});

test('--json prints exactly the API data, by id and by slug', async () => {
  const params = { workspaceId: t.workspaceId, linkId: link.id };
  const { data } = await t.api.call('getLinkAnalytics', { params, query: { days: 7 } });
  const byId = await hop.run(['analytics', link.id, '--days', '7', '--json']);
  assert.equal(byId.code, 0, byId.stderr);
  assert.equal(byId.stderr, '');
  assert.deepEqual(JSON.parse(byId.stdout), data);
  assert.equal(data.totalClicks, 4);
  assert.equal(data.uniqueClicks, 3);
  const bySlug = await hop.json<Analytics>(['analytics', link.slug, '--days', '7', '-w', t.slug]);
  assert.deepEqual(bySlug, data);
});

test('--group-by, --start/--end', async () => {
  const byCountry = await hop.json<Analytics>(['analytics', link.slug, '--group-by', 'country', '--start', '2d', '--end', today()]);
  assert.equal(byCountry.totalClicks, 4);
  assert.equal(byCountry.timeseries, undefined);
  assert.deepEqual(byCountry.groups, [
    { key: 'GB', clicks: 2, uniqueClicks: 2 },
    { key: 'US', clicks: 2, uniqueClicks: 1 },
  ]);
  assert.equal(byCountry.end, today());
  const plain = await hop.run(['analytics', link.id, '--group-by', 'device', '--days', '1']);
  assert.equal(plain.code, 0, plain.stderr);
  const lines = plain.stdout.trim().split('\n');
  assert.deepEqual(lines.filter((l) => l.startsWith('device\t')), ['device\tdesktop\t2\t1', 'device\tmobile\t1\t1', 'device\ttablet\t1\t1']);
});

test('piped: tab-separated lines, first field naming the row', async () => {
  const res = await hop.run(['analytics', link.id, '--days', '3']);
  assert.equal(res.code, 0, res.stderr);
  const lines = res.stdout.trim().split('\n');
  assert.deepEqual(lines.slice(0, 5), [
    `start\t${new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)}`, `end\t${today()}`,
    'clicks\t4', 'uniqueClicks\t3', 'failedPasswordAttempts\t0',
  ]);
  assert.equal(lines.filter((l) => l.startsWith('day\t')).length, 3);
  assert.ok(lines.includes(`day\t${today()}\t4\t3`));
  assert.ok(lines.includes('country\tUS\t2\t1'));
  assert.ok(lines.includes('referrer\tgoogle.com\t1\t1'));
  assert.ok(lines.includes('referrer\t\t2\t1'), 'no referrer: an empty key');
  assert.ok(!/[█▏]/.test(res.stdout), 'no chart in a pipe');
});

test('--workspace-wide: totals across links, with top links', async () => {
  const { data } = await t.api.call('getWorkspaceAnalytics', { params: { workspaceId: t.workspaceId } });
  const printed = await hop.json<Analytics>(['analytics', '--workspace-wide']);
  assert.deepEqual(printed, data);
  assert.equal(printed.topLinks![0].linkId, link.id);
  const plain = await hop.run(['analytics', '--workspace-wide', '--tag', 'nothing-has-this']);
  assert.equal(plain.code, 0, plain.stderr);
  assert.ok(plain.stdout.split('\n').includes('clicks\t0'));
});

test('bad flags and arguments exit 2', async () => {
  const cases: [string[], RegExp][] = [
    [['analytics', link.id, '--group-by', 'hour'], /Expected --group-by=hour to be one of/],
    [['analytics', link.id, '--days', '0'], /greater than or equal to 1/],
    [['analytics', link.id, '--days', '7', '--start', '2026-01-01'], /cannot also be provided/],
    [['analytics', link.id, '--start', '2026-02-30'], /not a calendar day/],
    [['analytics', link.id, '--start', 'last week'], /neither an ISO time nor a duration/],
    [['analytics', link.id, '--start', today(), '--end', '2020-01-01'], /--start is after --end/],
    [['analytics'], /--workspace-wide/],
    [['analytics', link.id, '--workspace-wide'], /not both/],
    [['analytics', link.id, '--tag', 'x'], /workspace-wide/],
    [['analytics', 'no-such-slug-here'], /no link with slug "no-such-slug-here"/],
  ];
  for (const [args, message] of cases) {
    const res = await hop.run(args);
    assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
    assert.match(res.stderr, message, args.join(' '));
    assert.equal(res.stdout, '');
  }
});

test('bars: scaled to the width, in eighths, a sliver for small non-zero values', () => {
  const lines = barChart([
    { label: 'a', value: 8 },
    { label: 'bb', value: 1 },
    { label: 'c', value: 0 },
    { label: 'd', value: 4, note: '4 (2 unique)' },
  ], 40);
  // 40 columns - label 2 - note 12 - 5 = 21 cells for the longest bar.
  assert.equal(lines[0], `a   ${'█'.repeat(21)}  8`);
  assert.equal(lines[1], `bb  ${'██▋'.padEnd(21)}  1`);
  assert.equal(lines[2], `c   ${' '.repeat(21)}  0`);
  assert.equal(lines[3], `d   ${'██████████▌'.padEnd(21)}  4 (2 unique)`);
  assert.ok(lines.every((l) => l.length <= 40));
  assert.deepEqual(barChart([{ label: 'x', value: 1 }, { label: 'y', value: 1000 }], 40)[0].trim().split(/\s+/), ['x', '▏', '1']);
});
