// The CI trusts settings page (docs/ci.md): an admin adds a trust through the form (checked by the
// shared schema first), sees it listed with its last use, and removes it; the API agrees.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { GITHUB_ACTIONS_ISSUER } from '@hop/shared';
import { team } from '../helpers/api.js';
import { assertPageBasics, launchBrowser, newPage, signInUi } from '../helpers/dashboard-browser.js';

let browser: Browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

test('add a CI trust in the form, see it listed, remove it', { timeout: 90_000 }, async () => {
  const t = await team();
  const { page, offsite } = await newPage(browser);
  await signInUi(page, t.email, t.password, `/login?next=${encodeURIComponent(`/${t.slug}/settings/ci-trusts`)}`);
  await page.getByRole('heading', { name: 'CI trusts' }).waitFor();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'CI trusts' }).waitFor();
  await assertPageBasics(page, '/{ws}/settings/ci-trusts');
  await page.getByText('No CI trusts yet.').waitFor();

  // No scope: refused before anything is sent.
  await page.getByLabel('Repository').fill('acme/site');
  await page.getByRole('button', { name: 'Add trust' }).click();
  await page.getByRole('alert').filter({ hasText: /Scopes/ }).waitFor();
  await page.getByLabel('Ref').fill('refs/heads/main');
  await page.getByLabel('links:write').check();
  await page.getByRole('button', { name: 'Add trust' }).click();
  const row = page.getByRole('row').filter({ hasText: 'acme/site' });
  await row.waitFor();
  assert.match(await row.innerText(), /GitHub Actions\s+refs\/heads\/main\s+links:write\s+never/);

  const { data } = await t.api.call('listCiTrusts', { params: { workspaceId: t.workspaceId } });
  assert.deepEqual(data.map((x) => [x.repository, x.issuer, x.ref, x.environment, x.scopes]), [['acme/site', GITHUB_ACTIONS_ISSUER, 'refs/heads/main', null, ['links:write']]]);

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Remove the trust of acme/site' }).click();
  await page.getByText('No CI trusts yet.').waitFor();
  assert.deepEqual((await t.api.call('listCiTrusts', { params: { workspaceId: t.workspaceId } })).data, []);
  assert.deepEqual(offsite, []);
});
