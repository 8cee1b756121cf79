// With HOP_GEO_HEADER set, the visitor's country comes from that trusted header (e.g. a CDN's
// CF-IPCountry) instead of the IP database; junk and "unknown" values are not stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, BROWSER_UA, eventually, team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';

test('countries come from HOP_GEO_HEADER when the server is told to trust it', async () => {
  const server = await startServer({
    dataDir: scratchDir('hop-geo-'),
    env: { HOP_GEO_HEADER: 'CF-IPCountry', HOP_CLICK_FLUSH_MS: '50', HOP_ADMIN_TOKEN: ADMIN_TOKEN },
  });
  try {
    const t = await team('free', server.url);
    const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/geo' } });
    const path = new URL(link.shortUrl).pathname;
    // Distinct user agents make distinct visitors; the header decides the country, not the IP.
    const visits: [string, string][] = [['de', 'a'], ['DE', 'b'], ['JP', 'c'], ['XX', 'd'], ['T1', 'e'], ['not-a-country', 'f']];
    for (const [country, ua] of visits) {
      const res = await fetch(server.url + path, { redirect: 'manual', headers: { 'cf-ipcountry': country, 'user-agent': `${BROWSER_UA.desktopChrome} ${ua}` } });
      assert.equal(res.status, 302);
    }
    const params = { workspaceId: t.workspaceId, linkId: link.id };
    await eventually(async () => ((await t.api.call('getLink', { params })).data.clicks === 6 ? true : undefined), 5000, 'six clicks');
    const { data } = await t.api.call('getLinkAnalytics', { params, query: { groupBy: 'country' } });
    assert.deepEqual(data.groups, [
      { key: null, clicks: 3, uniqueClicks: 3 },
      { key: 'DE', clicks: 2, uniqueClicks: 2 },
      { key: 'JP', clicks: 1, uniqueClicks: 1 },
    ]);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
