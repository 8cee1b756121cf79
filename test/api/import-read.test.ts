// POST .../links/import/read: the server reads another shortener's API for the dashboard, under its
// outbound address rules. On the shared test server (rules on) a loopback or private address is
// refused before any connection; a server started here with HOP_ALLOW_PRIVATE_URLS reads a
// loopback fixture of the service, through its 429 and 5xx, and names a refused token.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, fails, team, unique } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { fixtureLinks, startShortenerFixture } from '../helpers/shortener-fixture.js';

const token = `tok-${unique()}`;
let fixture: Awaited<ReturnType<typeof startShortenerFixture>>;
before(async () => {
  fixture = await startShortenerFixture('shlink', { token, links: fixtureLinks(230, unique('rd-')), rateLimitAt: 2, serverErrorAt: 3 });
});
after(() => fixture.close());

test('the outbound rules decide before connecting: plain http, loopback and private addresses are refused', async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const before = fixture.requests.length;
  for (const url of [fixture.url, 'https://127.0.0.1:1', 'https://10.0.0.1', 'https://169.254.169.254', 'https://[::1]']) {
    await fails(t.api, 'readImportSource', { params, body: { from: 'shlink', url, token } }, 'URL_NOT_ALLOWED');
  }
  assert.equal(fixture.requests.length, before, 'the fixture was never asked');
  await fails(t.api, 'readImportSource', { params, body: { from: 'yourls', token } }, 'VALIDATION_ERROR');
});

test('with private URLs allowed, the links are read page by page through a 429 and a 5xx; a refused token is named', async () => {
  const server = await startServer({ dataDir: scratchDir('hop-import-read-'), env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
  try {
    const t = await team('free', server.url);
    const params = { workspaceId: t.workspaceId };
    const { data } = await t.api.call('readImportSource', { params, body: { from: 'shlink', url: fixture.url, token } });
    assert.equal(data.links.length, 230);
    assert.deepEqual([data.links[9].domain, data.links[9].clicks, data.links[9].title], ['sho.rt', 100, 'Link 10']);
    assert.ok(fixture.requests.some((r) => r.status === 429) && fixture.requests.some((r) => r.status === 503));
    const wrong = await fails(t.api, 'readImportSource', { params, body: { from: 'shlink', url: fixture.url, token: 'wrong' } }, 'VALIDATION_ERROR');
    assert.match(JSON.stringify(wrong), /shlink refused the token \(HTTP 401: Provided API key does not exist or is invalid\.\)/);
    const created = await t.api.call('listLinks', { params });
    assert.equal(created.data.length, 0, 'reading creates nothing');
  } finally {
    await server.stop();
  }
});
