// The dashboard's import page: a recorded Shlink export file, or a Kutt fixture's API read by a
// server started here (which may reach loopback), the plan shown before anything is created, then
// the import, with the same importers and planner as the CLI.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, team, unique, type Team } from '../helpers/api.js';
import { assertPageBasics, launchBrowser, newPage, signInUi } from '../helpers/dashboard-browser.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { fixtureLinks, startShortenerFixture } from '../helpers/shortener-fixture.js';

let browser: Browser;
let t: Team;
before(async () => {
  browser = await launchBrowser();
  t = await team('pro');
});
after(async () => browser.close());

test('import page: the plan first, nothing created until the import is confirmed', async () => {
  const prefix = unique('web-');
  const csv = readFileSync(new URL('../fixtures/import/shlink-export.csv', import.meta.url), 'utf8')
    .replace(/,(spring-launch|docs|with\.dot),/g, `,${prefix}$1,`).replace(/\/(spring-launch|docs|with\.dot)\b/g, `/${prefix}$1`);
  const { page, context } = await newPage(browser);
  try {
    await signInUi(page, t.email, t.password, `/login?next=${encodeURIComponent(`/${t.slug}/links/import`)}`);
    await page.getByRole('heading', { name: 'Import links' }).waitFor();
    await page.getByLabel('Service').selectOption('shlink');
    await page.getByLabel('Export file', { exact: true }).setInputFiles({ name: 'shlink.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Show the plan' }).click();
    const counts = page.getByTestId('import-plan-counts');
    await counts.waitFor();
    assert.equal((await counts.textContent())?.replace(/\s+/g, ' ').trim(), 'Plan: 2 to create, 0 to skip (already there), 0 conflict(s), 1 that cannot be imported.');
    assert.ok(await page.getByText(`go.acme.test/${prefix}docs`).isVisible());
    assert.ok(await page.getByText('domain changed: go.acme.test is not a domain of this workspace').isVisible());
    await assertPageBasics(page, 'import plan');
    const none = await t.api.call('listLinks', { params: { workspaceId: t.workspaceId } });
    assert.equal(none.data.length, 0, 'the plan creates nothing');

    await page.getByRole('button', { name: 'Import 2 link(s)' }).click();
    const outcome = page.getByTestId('import-outcome');
    await outcome.waitFor();
    assert.equal((await outcome.textContent())?.trim(), 'Imported 2 link(s).');
    const { data } = await t.api.call('listLinks', { params: { workspaceId: t.workspaceId } });
    const spring = data.find((l) => l.slug === `${prefix}spring-launch`)!;
    assert.deepEqual([spring.importedClicks, spring.originalCreatedAt, spring.title], [1289, '2021-03-04T10:11:12.000Z', 'Spring launch']);
    assert.equal(data.length, 2);
  } finally {
    await context.close();
  }
});

test('import page: a service\'s API read with a token by the server, planned, then imported', async () => {
  const server = await startServer({ dataDir: scratchDir('hop-web-import-'), env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN } });
  const token = `tok-${unique()}`;
  const fixture = await startShortenerFixture('kutt', { token, links: fixtureLinks(60, unique('kw-')) });
  const owner = await team('pro', server.url);
  const { page, context } = await newPage(browser, 1280, server.url);
  try {
    await signInUi(page, owner.email, owner.password, `/login?next=${encodeURIComponent(`/${owner.slug}/links/import`)}`, `${server.url}/app`);
    await page.getByRole('heading', { name: 'Import links' }).waitFor();
    await page.getByLabel('its API, with a token').check();
    await page.getByLabel('Service').selectOption('kutt');
    await page.getByLabel(/^API address/).fill(fixture.url);
    await page.getByLabel(/^Token/).fill(token);
    await page.getByRole('button', { name: 'Show the plan' }).click();
    const counts = page.getByTestId('import-plan-counts');
    await counts.waitFor();
    assert.equal((await counts.textContent())?.replace(/\s+/g, ' ').trim(), 'Plan: 60 to create, 0 to skip (already there), 0 conflict(s).');
    assert.equal((await owner.api.call('listLinks', { params: { workspaceId: owner.workspaceId } })).data.length, 0);
    await page.getByRole('button', { name: 'Import 60 link(s)' }).click();
    await page.getByTestId('import-outcome').waitFor();
    assert.equal((await page.getByTestId('import-outcome').textContent())?.trim(), 'Imported 60 link(s).');
    const all = await owner.api.paginate('listLinks', { params: { workspaceId: owner.workspaceId }, query: { limit: 100 } });
    assert.equal(all.data.length, 60);
    assert.ok(all.data.every((l) => l.importedClicks !== null));
  } finally {
    await context.close();
    await fixture.close();
    await server.stop();
  }
});
