// The link form's smart fields in headless Chromium through the real server, each result read
// back through the API: rules, A/B variants, app links and the preview are set in the form, saved
// and shown again after a reload; a field changed elsewhere after the page loaded survives the
// save; the social cards follow the preview fields as they are typed; analytics name the targets;
// a taken slug offers a free one and a reserved word is named.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { BROWSER_UA, eventually, team, unique, visit } from '../helpers/api.js';
import { assertPageBasics, launchBrowser, signedIn } from '../helpers/dashboard-browser.js';

let browser: Browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

test('rules, variants, app links and preview round trip through the form; a field changed meanwhile survives', { timeout: 120_000 }, async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const { data: link } = await t.api.call('createLink', {
    params,
    body: { url: 'https://example.com/launch', slug: unique('smart-'), title: 'Launch', rules: [{ when: { country: ['DE', 'AT', 'CH'] }, url: 'https://de.example.com/' }] },
  });
  const { page, offsite } = await signedIn(browser, t.email, t.password, `/${t.slug}/links/${link.id}`);
  await page.getByRole('heading', { name: link.slug }).waitFor();
  // What the API set shows in the form: the rules section is open with the rule in it.
  assert.equal(await page.getByLabel('Rule 1: countries').inputValue(), 'DE, AT, CH');
  assert.equal(await page.getByLabel('Rule 1: destination URL').inputValue(), 'https://de.example.com/');
  await page.getByTestId('link-health').filter({ hasText: 'Not checked yet' }).waitFor();

  // Changed through the API after the page loaded: the form still shows no click limit.
  await t.api.call('updateLink', { params: { ...params, linkId: link.id }, body: { maxClicks: 500 } });

  await page.getByRole('button', { name: 'Add a rule' }).click();
  await page.getByRole('group', { name: 'Rule 2' }).getByLabel('mobile').check();
  await page.getByLabel('Rule 2: languages').fill('fr');
  await page.getByLabel('Rule 2: destination URL').fill('https://fr.example.com/');
  await page.getByRole('button', { name: 'Split between variants' }).click();
  await page.getByLabel('Variant 1: URL').fill('https://a.example.com/');
  await page.getByLabel('Variant 2: URL').fill('https://b.example.com/');
  await page.getByLabel('Variant 1: weight (%)').fill('70');
  await page.getByLabel('Variant 2: weight (%)').fill('20');
  await page.getByText('Weights sum to 90, not 100.').waitFor();
  await page.locator('summary', { hasText: 'App links' }).click();
  await page.getByLabel('iOS link').fill('https://apps.example.com/app/id123456789');
  await page.getByLabel('Android link').fill('javascript://alert(1)');
  await page.locator('summary', { hasText: 'Social preview' }).click();
  await page.getByLabel('Preview title').fill('Launch day');
  await page.getByLabel('Preview description').fill('Everything about the launch');
  await page.getByLabel('Preview image URL').fill('https://cdn.example.com/card.png');
  // One card per site, each following the fields as typed; the image is named, not fetched.
  for (const site of ['Facebook', 'X', 'LinkedIn', 'Slack']) {
    const card = page.locator(`figure[data-site="${site}"]`);
    await card.getByText('Launch day').waitFor();
    await card.getByRole('img', { name: `${site} card image from cdn.example.com` }).waitFor();
  }
  await assertPageBasics(page, 'the link form with every smart field');

  // Refused by the shared schema before anything is sent: the weights and the Android link.
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('alert').filter({ hasText: 'weights must sum to 100' }).waitFor();
  await page.getByRole('alert').filter({ hasText: /javascript: scheme/ }).waitFor();
  assert.equal((await t.api.call('getLink', { params: { ...params, linkId: link.id } })).data.variants, null, 'nothing was sent');

  await page.getByLabel('Variant 2: weight (%)').fill('30');
  await page.getByLabel('Android link').fill('market://details?id=com.example.app');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

  const { data: saved } = await t.api.call('getLink', { params: { ...params, linkId: link.id } });
  assert.deepEqual(saved.rules, [
    { when: { country: ['DE', 'AT', 'CH'] }, url: 'https://de.example.com/' },
    { when: { device: 'mobile', language: 'fr' }, url: 'https://fr.example.com/' },
  ]);
  assert.deepEqual(saved.variants, [{ url: 'https://a.example.com/', weight: 70 }, { url: 'https://b.example.com/', weight: 30 }]);
  assert.equal(saved.ios, 'https://apps.example.com/app/id123456789');
  assert.equal(saved.android, 'market://details?id=com.example.app');
  assert.deepEqual(saved.preview, { title: 'Launch day', description: 'Everything about the launch', image: 'https://cdn.example.com/card.png' });
  assert.equal(saved.maxClicks, 500, 'the click limit set elsewhere survives the save');
  assert.equal(saved.title, 'Launch');
  assert.equal(saved.url, 'https://example.com/launch');

  // After a reload the form shows what was stored.
  await page.reload();
  await page.getByRole('heading', { name: link.slug }).waitFor();
  assert.equal(await page.getByLabel('Rule 2: languages').inputValue(), 'fr');
  assert.equal(await page.getByRole('group', { name: 'Rule 2' }).getByLabel('mobile').isChecked(), true);
  assert.equal(await page.getByLabel('Variant 1: weight (%)').inputValue(), '70');
  assert.equal(await page.getByLabel('iOS link').inputValue(), 'https://apps.example.com/app/id123456789');
  assert.equal(await page.getByLabel('Preview title').inputValue(), 'Launch day');
  assert.equal(await page.getByLabel('Click limit').inputValue(), '500');

  // Removing a rule and clearing the preview sends just those two.
  await page.getByRole('button', { name: 'Remove rule 2' }).click();
  for (const label of ['Preview title', 'Preview description', 'Preview image URL']) await page.getByLabel(label).fill('');
  await page.getByText('No preview set').waitFor();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  const { data: trimmed } = await t.api.call('getLink', { params: { ...params, linkId: link.id } });
  assert.deepEqual(trimmed.rules, [{ when: { country: ['DE', 'AT', 'CH'] }, url: 'https://de.example.com/' }]);
  assert.equal(trimmed.preview, null);
  assert.deepEqual(trimmed.variants, saved.variants);
  assert.equal(trimmed.android, saved.android);
  assert.deepEqual(offsite, [], 'the page requested nothing but the server under test');
  await page.context().close();
});

test('analytics group the clicks by target, named as the link names them', { timeout: 90_000 }, async () => {
  const t = await team();
  const params = { workspaceId: t.workspaceId };
  const { data: link } = await t.api.call('createLink', {
    params, body: { url: 'https://example.com/app', ios: 'https://apps.example.com/app/id123456789', rules: [{ when: { device: 'tablet' }, url: 'https://example.com/tablet' }] },
  });
  assert.equal((await visit(link.shortUrl, { ip: '8.8.8.8', ua: BROWSER_UA.iphoneSafari })).headers.get('location'), link.ios);
  assert.equal((await visit(link.shortUrl, { ip: '8.8.4.4', ua: BROWSER_UA.desktopChrome })).headers.get('location'), link.url);
  await eventually(async () => ((await t.api.call('getLinkAnalytics', { params: { ...params, linkId: link.id } })).data.totalClicks === 2 ? true : undefined), 10_000, '2 clicks');
  const { page } = await signedIn(browser, t.email, t.password, `/${t.slug}/links/${link.id}`);
  const targets = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Targets' }) });
  await targets.getByRole('cell', { name: 'iOS link (https://apps.example.com/app/id123456789)' }).waitFor();
  await targets.getByRole('cell', { name: 'Destination URL (https://example.com/app)' }).waitFor();
  await page.context().close();
});

test('a taken slug offers a free one; a reserved word is named', { timeout: 60_000 }, async () => {
  const t = await team();
  const taken = unique('taken-');
  await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/a', slug: taken } });
  const { page } = await signedIn(browser, t.email, t.password, `/${t.slug}/links/new`);
  await page.getByRole('heading', { name: 'Create link' }).waitFor();
  await page.getByLabel('Destination URL').fill('https://example.com/b');
  await page.getByLabel('Slug').fill('Admin');
  await page.getByRole('button', { name: 'Create link' }).click();
  await page.getByRole('alert').filter({ hasText: '"Admin" is a reserved word' }).waitFor();
  await page.getByLabel('Slug').fill(taken);
  await page.getByRole('button', { name: 'Create link' }).click();
  const use = page.getByRole('button', { name: /^Use “/ });
  await use.waitFor();
  const free = (await use.innerText()).replace(/^Use “|”$/g, '');
  assert.notEqual(free, taken);
  await use.click();
  assert.equal(await page.getByLabel('Slug').inputValue(), free);
  await page.getByRole('button', { name: 'Create link' }).click();
  await page.getByRole('heading', { name: free }).waitFor();
  await page.context().close();
});
