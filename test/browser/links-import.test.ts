// The dashboard's import page: a recorded Shlink export file, the plan shown before anything is
// created, then the import, with the same importers and planner as the CLI.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { team, unique, type Team } from '../helpers/api.js';
import { assertPageBasics, DASHBOARD_URL, launchBrowser, newPage, signInUi } from '../helpers/dashboard-browser.js';

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
    await page.getByLabel('Export file').setInputFiles({ name: 'shlink.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
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
