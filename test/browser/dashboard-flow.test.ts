// The dashboard's main flow in headless Chromium through the real server, each result checked
// through the API: sign in → create a link → visits → the chart shows them → a QR code's PNG
// download decodes → an API key is shown once and works → an invite is accepted → the viewer is
// read-only → TIER_REQUIRED's link opens billing. Every page visited passes axe.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { client, eventually, setPlan, signup, team, unique, visit, BROWSER_UA } from '../helpers/api.js';
import { decode, decodePng, zbarDecode } from '../helpers/qr-decode.js';
import { assertPageBasics, DASHBOARD_URL, launchBrowser, newPage, signedIn } from '../helpers/dashboard-browser.js';

let browser: Browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

test('create a link in the form, visit it, see the clicks and the chart, download a QR code that decodes', { timeout: 90_000 }, async () => {
  const t = await team();
  const { page, offsite } = await signedIn(browser, t.email, t.password, `/${t.slug}/links`);
  await page.getByRole('heading', { name: 'Links' }).waitFor();
  await page.getByRole('link', { name: 'Create link' }).click();
  await page.getByRole('heading', { name: 'Create link' }).waitFor();
  await assertPageBasics(page, '/{ws}/links/new');
  // Refused by the shared schema before anything is sent.
  await page.getByLabel('Destination URL').fill('example.com/no-scheme');
  await page.getByRole('button', { name: 'Create link' }).click();
  await page.getByRole('alert').filter({ hasText: /http/ }).first().waitFor();
  const slug = unique('launch-');
  await page.getByLabel('Destination URL').fill('https://example.com/launch');
  await page.getByLabel('Slug').fill(slug);
  await page.getByLabel('Tags').fill('Launch, q4');
  await page.getByRole('button', { name: 'Create link' }).click();
  await page.getByRole('heading', { name: slug }).waitFor();

  const { data: links } = await t.api.call('listLinks', { params: { workspaceId: t.workspaceId }, query: { q: slug } });
  const link = links.find((l) => l.slug === slug);
  assert.ok(link, 'the link exists');
  assert.deepEqual(link.tags.sort(), ['launch', 'q4']);
  assert.equal(link.url, 'https://example.com/launch');

  for (const ip of ['8.8.8.8', '8.8.4.4', '81.2.69.142']) assert.equal((await visit(link.shortUrl, { ip, ua: BROWSER_UA.desktopChrome })).status, 302);
  const params = { workspaceId: t.workspaceId, linkId: link.id };
  await eventually(async () => ((await t.api.call('getLinkAnalytics', { params })).data.totalClicks === 3 ? true : undefined), 10_000, '3 clicks counted');
  await page.reload();
  await page.getByRole('heading', { name: 'Analytics' }).waitFor();
  await page.getByTestId('total-clicks').filter({ hasText: '3' }).waitFor();
  assert.match(await page.locator('.stat').first().innerText(), /^3\s+clicks$/);
  // The chart: today's 3 clicks are the top of the clicks line, at its last day (of 30).
  const chart = page.getByRole('img', { name: /^Clicks per day from .* 3 in all$/ });
  await chart.waitFor();
  assert.match(await chart.locator('path.chart-clicks').getAttribute('d') ?? '', /L29 0\.00$/);
  await page.getByRole('cell', { name: 'US' }).waitFor();
  // Another range asks the API again and still shows today's clicks.
  await page.getByLabel('Range').selectOption('7');
  await page.getByText(/\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/).waitFor();
  await page.getByTestId('total-clicks').filter({ hasText: '3' }).waitFor();
  await assertPageBasics(page, '/{ws}/links/{id}');

  // QR: the designer previews live, creates, and the PNG download decodes to the code's scan URL.
  await page.getByRole('button', { name: 'New QR code' }).click();
  await page.getByRole('img', { name: 'Live preview of the QR code' }).waitFor();
  await page.getByLabel('Foreground colour').fill('#1a1a6e');
  await assertPageBasics(page, 'QR designer');
  await page.getByRole('button', { name: 'Create QR code' }).click();
  const download = page.getByRole('link', { name: 'Download PNG' });
  await download.waitFor();
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  const png = readFileSync(await file.path());
  const { data: codes } = await t.api.call('listQrCodes', { params: { linkId: link.id } });
  assert.equal(codes.length, 1);
  assert.equal(codes[0].foregroundColor, '#1a1a6e');
  assert.equal(await decodePng(png), codes[0].scanUrl);
  const zbar = zbarDecode(png);
  if (zbar !== undefined) assert.equal(zbar, codes[0].scanUrl, 'zbarimg reads it too');
  // SVG and PDF, chosen in the designer, download and decode as well.
  for (const format of ['svg', 'pdf'] as const) {
    await page.getByRole('button', { name: 'New QR code' }).click();
    await page.getByLabel('Format').selectOption(format);
    await page.getByRole('button', { name: 'Create QR code' }).click();
    const dl = page.getByRole('link', { name: `Download ${format.toUpperCase()}` });
    await dl.waitFor();
    const [got] = await Promise.all([page.waitForEvent('download'), dl.click()]);
    const { data: all } = await t.api.call('listQrCodes', { params: { linkId: codes[0].linkId } });
    const code = all.find((c) => c.format === format)!;
    assert.equal(await decode(format, readFileSync(await got.path())), code.scanUrl, `${format} download decodes`);
  }
  assert.deepEqual(offsite, []);
  await page.context().close();
});

test('an API key is shown once, works, and after a reload only its prefix remains', { timeout: 60_000 }, async () => {
  const t = await team();
  const { page } = await signedIn(browser, t.email, t.password, `/${t.slug}/settings/keys`);
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  await assertPageBasics(page, '/{ws}/settings/keys');
  await page.getByLabel('Name').fill('CI deploys');
  await page.getByRole('checkbox', { name: 'links:read' }).check();
  await page.getByRole('checkbox', { name: 'links:write' }).check();
  await page.getByRole('button', { name: 'Create API key' }).click();
  const secret = await page.getByTestId('secret').innerText();
  assert.match(secret, /^hop_live_[0-9A-Za-z]{32}$/);
  const keyApi = client({ apiKey: secret });
  const { data: created } = await keyApi.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/by-key' } });
  assert.ok(created.id);
  const { data: keys } = await t.api.call('listApiKeys', { params: { workspaceId: t.workspaceId } });
  assert.deepEqual(keys.map((k) => [k.name, [...k.scopes].sort()]), [['CI deploys', ['links:read', 'links:write']]]);
  await page.reload();
  await page.getByRole('cell', { name: 'CI deploys' }).waitFor();
  assert.equal(await page.getByText(secret).count(), 0, 'the key is not shown again');
  await page.getByText(`${keys[0].prefix}…`).waitFor();
  await page.context().close();
});

test('an invite is accepted through its acceptUrl; the viewer reads but is offered nothing to change', { timeout: 90_000 }, async () => {
  const t = await team();
  await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/x', slug: unique('seen-') } });
  const invitee = await signup();
  const { page: owner } = await signedIn(browser, t.email, t.password, `/${t.slug}/settings/members`);
  await owner.getByRole('heading', { name: 'Members' }).waitFor();
  await owner.getByLabel('Email').fill(invitee.email);
  await owner.getByLabel('Role', { exact: true }).selectOption('viewer');
  await owner.getByRole('button', { name: 'Send invite' }).click();
  const acceptUrl = await owner.locator('.secret code').innerText();
  assert.match(acceptUrl, /\/app\/invites\/hopinv_/);
  await assertPageBasics(owner, '/{ws}/settings/members');

  // The invitee opens the link signed out: sign in, come back, accept.
  const { page } = await newPage(browser, 360);
  await page.goto(`${DASHBOARD_URL}${new URL(acceptUrl).pathname.replace(/^\/app/, '')}`);
  await page.getByRole('heading', { name: 'Join a workspace' }).waitFor();
  await assertPageBasics(page, '/invites/{token}');
  await page.getByRole('link', { name: 'Sign in' }).last().click();
  await page.getByLabel('Email').fill(invitee.email);
  await page.getByLabel('Password').fill(invitee.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Accept invite' }).click();
  await page.getByRole('heading', { name: 'Links' }).waitFor();
  const ws = (await invitee.api.call('listWorkspaces', {})).data.find((w) => w.id === t.workspaceId);
  assert.equal(ws?.role, 'viewer');

  // Read-only: no enabled create control, no selection, no edit form, no QR designer.
  await page.locator('table tbody tr').first().waitFor();
  assert.equal(await page.getByRole('link', { name: 'Create link' }).count(), 0);
  const create = page.getByRole('button', { name: 'Create link' });
  assert.ok((await create.count()) === 0 || (await create.isDisabled()));
  await assertPageBasics(page, '/{ws}/links as a viewer at 360 px');
  await page.locator('table tbody a.slug').first().click();
  await page.getByRole('heading', { name: 'Analytics' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'New QR code' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Save changes' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Delete link' }).count(), 0);
  // A page the role may not use says so, not a blank page.
  await page.goto(`${DASHBOARD_URL}/${t.slug}/webhooks`);
  await page.getByRole('alert').filter({ hasText: /admins/ }).waitFor();
  await owner.context().close();
  await page.context().close();
});

test('TIER_REQUIRED: a password on a free plan is refused with a link that opens billing', { timeout: 60_000 }, async () => {
  const t = await team();
  const { page } = await signedIn(browser, t.email, t.password, `/${t.slug}/links/new`);
  await page.getByRole('heading', { name: 'Create link' }).waitFor();
  await page.getByLabel('Destination URL').fill('https://example.com/secret');
  await page.getByText('Expiry, click limit and password').click();
  await page.getByLabel('Password', { exact: true }).fill('open sesame 1');
  await page.getByRole('button', { name: 'Create link' }).click();
  const alert = page.getByRole('alert').filter({ hasText: /pro plan/ });
  await alert.waitFor();
  await alert.getByRole('link', { name: 'See plans and billing' }).click();
  await page.getByRole('heading', { name: 'Plan and billing' }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/app/${t.slug}/settings/billing`);
  assert.equal(await page.getByTestId('plan').innerText(), 'free');
  // The limits as numbers, as the API states them (the test server scales request limits).
  const { data: usage } = await t.api.call('getUsage', { params: { workspaceId: t.workspaceId } });
  const plan = page.getByRole('table', { name: 'Limits of the free plan' });
  await plan.getByRole('row', { name: `Requests per hour ${usage.limits.requestsPerHour.toLocaleString('en')}` }).waitFor();
  await plan.getByRole('row', { name: `QR codes per hour ${usage.limits.qrPerHour!.toLocaleString('en')}` }).waitFor();
  await page.getByRole('heading', { name: 'The starter plan' }).waitFor();
  await assertPageBasics(page, '/{ws}/settings/billing');
  // The API's own upgradeUrl is that page.
  const err = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/s', password: 'open sesame 1' } }).catch((e) => e);
  assert.equal(err.code, 'TIER_REQUIRED');
  assert.equal(new URL(err.details.upgradeUrl).pathname, `/app/${t.slug}/settings/billing`);
  await setPlan(t.workspaceId, 'pro');
  await page.reload();
  await page.getByTestId('plan').filter({ hasText: 'pro' }).waitFor();
  await page.context().close();
});
