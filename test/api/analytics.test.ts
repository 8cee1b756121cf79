import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HopApiError } from '@hop/shared/client';
import { BROWSER_UA, eventually, team, visit } from '../helpers/api.js';

const today = () => new Date().toISOString().slice(0, 10);

async function linkWithVisits() {
  const t = await team();
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/a' } });
  // Two visits of one desktop visitor in the US via Google, an iPhone and an iPad in GB, and a bot.
  const visits = [
    { ua: BROWSER_UA.desktopChrome, ip: '8.8.8.8', referer: 'https://www.google.com/search?q=hop' },
    { ua: BROWSER_UA.desktopChrome, ip: '8.8.8.8', referer: 'https://www.google.com/search?q=again' },
    { ua: BROWSER_UA.iphoneSafari, ip: '81.2.69.142', referer: 'https://t.co/xyz' },
    { ua: BROWSER_UA.ipad, ip: '81.2.69.142' },
    { ua: BROWSER_UA.googlebot, ip: '66.249.66.1' },
  ];
  for (const v of visits) assert.equal((await visit(link.shortUrl, v)).status, 302);
  const params = { workspaceId: t.workspaceId, linkId: link.id };
  await eventually(async () => ((await t.api.call('getLink', { params })).data.clicks === 4 ? true : undefined), 5000, '4 counted clicks');
  return { t, link, params };
}

test('link analytics: totals, uniques, breakdowns, bots excluded, daily series', async () => {
  const { t, params } = await linkWithVisits();
  const { data } = await t.api.call('getLinkAnalytics', { params });
  assert.equal(data.totalClicks, 4);
  assert.equal(data.uniqueClicks, 3);
  assert.equal(data.failedPasswordAttempts, 0);
  assert.equal(data.end, today());
  assert.equal(data.timeseries!.length, 30);
  assert.deepEqual(data.timeseries!.at(-1), { date: today(), clicks: 4, uniqueClicks: 3 });
  assert.deepEqual(data.countries, [
    { key: 'GB', clicks: 2, uniqueClicks: 2 },
    { key: 'US', clicks: 2, uniqueClicks: 1 },
  ]);
  assert.deepEqual(data.devices, [
    { key: 'desktop', clicks: 2, uniqueClicks: 1 },
    { key: 'mobile', clicks: 1, uniqueClicks: 1 },
    { key: 'tablet', clicks: 1, uniqueClicks: 1 },
  ]);
  assert.deepEqual(data.referrers, [
    { key: 'google.com', clicks: 2, uniqueClicks: 1 },
    { key: null, clicks: 1, uniqueClicks: 1 },
    { key: 't.co', clicks: 1, uniqueClicks: 1 },
  ]);
  assert.equal(data.browsers![0].key, 'Chrome');
  assert.ok(data.os!.some((o) => o.key === 'iOS'));
});

test('groupBy gives groups with the same totals', async () => {
  const { t, params } = await linkWithVisits();
  const byDevice = (await t.api.call('getLinkAnalytics', { params, query: { groupBy: 'device' } })).data;
  assert.equal(byDevice.totalClicks, 4);
  assert.equal(byDevice.timeseries, undefined);
  assert.deepEqual(byDevice.groups!.map((g) => g.key), ['desktop', 'mobile', 'tablet']);
  const byDay = (await t.api.call('getLinkAnalytics', { params, query: { groupBy: 'day', days: 7 } })).data;
  assert.equal(byDay.groups!.length, 7);
  assert.deepEqual(byDay.groups!.at(-1), { key: today(), clicks: 4, uniqueClicks: 3 });
  const byMonth = (await t.api.call('getLinkAnalytics', { params, query: { groupBy: 'month', days: 1 } })).data;
  assert.deepEqual(byMonth.groups, [{ key: `${today().slice(0, 7)}-01`, clicks: 4, uniqueClicks: 3 }]);
  const byCountry = (await t.api.call('getLinkAnalytics', { params, query: { groupBy: 'country', start: today(), end: today() } })).data;
  assert.deepEqual(byCountry.groups!.map((g) => g.key), ['GB', 'US']);
});

test('workspace analytics add topLinks and honour filters', async () => {
  const { t, link } = await linkWithVisits();
  await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/b', tags: ['other'] } });
  const { data } = await t.api.call('getWorkspaceAnalytics', { params: { workspaceId: t.workspaceId } });
  assert.equal(data.totalClicks, 4);
  assert.equal(data.topLinks![0].linkId, link.id);
  assert.equal(data.topLinks![0].shortUrl, link.shortUrl);
  const filtered = await t.api.call('getWorkspaceAnalytics', { params: { workspaceId: t.workspaceId }, query: { tags: 'other' } });
  assert.equal(filtered.data.totalClicks, 0);
  const byLink = await t.api.call('getWorkspaceAnalytics', { params: { workspaceId: t.workspaceId }, query: { linkId: link.id } });
  assert.equal(byLink.data.totalClicks, 4);
});

test('failed password attempts are counted', async () => {
  const t = await team('pro');
  const { data: link } = await t.api.call('createLink', {
    params: { workspaceId: t.workspaceId },
    body: { url: 'https://example.com/secret', password: 'open sesame' },
  });
  for (let i = 0; i < 2; i++) assert.equal((await visit(link.shortUrl, { method: 'POST', body: 'password=nope' })).status, 401);
  const { data } = await t.api.call('getLinkAnalytics', { params: { workspaceId: t.workspaceId, linkId: link.id } });
  assert.equal(data.failedPasswordAttempts, 2);
});

test('ranges: cut to the plan retention; bad ranges refused', async () => {
  const t = await team();
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/r' } });
  const params = { workspaceId: t.workspaceId, linkId: link.id };
  const { data } = await t.api.call('getLinkAnalytics', { params, query: { days: 365 } });
  assert.equal(data.timeseries!.length, 30, 'free plans keep 30 days');
  const bad = [{ days: 0 }, { days: 731 }, { days: 7, start: today() }, { start: '2026-02-30' }, { groupBy: 'hour' }, { start: today(), end: '2020-01-01' }];
  for (const query of bad) {
    await assert.rejects(t.api.call('getLinkAnalytics', { params, query: query as never }), (e: HopApiError) => e.code === 'VALIDATION_ERROR', JSON.stringify(query));
  }
  const other = await team();
  await assert.rejects(other.api.call('getLinkAnalytics', { params: { workspaceId: other.workspaceId, linkId: link.id } }), (e: HopApiError) => e.code === 'NOT_FOUND');
});

test('imported clicks: shown apart, added to the totals of the link and the workspace, in no day or breakdown', async () => {
  const { t, link, params } = await linkWithVisits();
  const ws = { workspaceId: t.workspaceId };
  const { data: imported } = await t.api.call('createLink', {
    params: ws, body: { url: 'https://example.com/imported', tags: ['moved'], importedClicks: 1500, originalCreatedAt: '2019-04-01T12:00:00.000Z' },
  });
  assert.equal(imported.importedClicks, 1500);
  assert.equal(imported.originalCreatedAt, '2019-04-01T12:00:00.000Z');
  assert.equal(imported.clicks, 0, 'clicks counts Hop\'s own visits');

  const own = await t.api.call('getLinkAnalytics', { params });
  assert.equal(own.data.importedClicks, 0);
  assert.equal(own.data.totalClicks, 4);
  const one = await t.api.call('getLinkAnalytics', { params: { ...ws, linkId: imported.id }, query: { days: 7 } });
  assert.equal(one.data.importedClicks, 1500);
  assert.equal(one.data.totalClicks, 1500);
  assert.equal(one.data.timeseries!.reduce((n, d) => n + d.clicks, 0), 0, 'imported clicks have no day');
  const all = await t.api.call('getWorkspaceAnalytics', { params: ws });
  assert.equal(all.data.importedClicks, 1500);
  assert.equal(all.data.totalClicks, 1504);
  const tagged = await t.api.call('getWorkspaceAnalytics', { params: ws, query: { tags: 'moved' } });
  assert.equal(tagged.data.totalClicks, 1500);
  const other = await t.api.call('getWorkspaceAnalytics', { params: ws, query: { linkId: link.id } });
  assert.equal(other.data.importedClicks, 0);
});
