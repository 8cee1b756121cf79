// What a daily user trips over, in headless Chromium through real servers: a failed webhook test
// in red, the webhook's description, forms that clear after creating, the settings nav marking its
// page, the workspace slug from its name, the upgrade shown before a gated form, dark mode, the
// destination check, and CSV export and import of links. Webhook tests and destination checks go
// to loopback receivers only, on a server of this file that may reach them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, team, unique } from '../helpers/api.js';
import { assertAccessible, assertPageBasics, DASHBOARD_URL, launchBrowser, newPage, signedIn } from '../helpers/dashboard-browser.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { startReceiver, throwAwayCertificate } from '../helpers/webhook-receiver.js';

let browser: Browser;
let server: Awaited<ReturnType<typeof startServer>>;
const cert = throwAwayCertificate();

before(async () => {
  browser = await launchBrowser();
  server = await startServer({
    dataDir: scratchDir('hop-dashboard-small-'),
    env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN, NODE_EXTRA_CA_CERTS: cert.caFile },
  });
});
after(async () => {
  await browser?.close();
  assert.equal(await server?.stop(), 0);
});

/** Signed in on this file's server (or `origin`), at `path`. */
const signedInAt = async (email: string, password: string, path: string, origin = server.url) =>
  (await signedIn(browser, email, password, path, { origin })).page;

test('a failed webhook test is red; the description shows; the form clears after creating', { timeout: 90_000 }, async () => {
  const receiver = await startReceiver({ tls: cert, respond: () => 500 });
  try {
    const t = await team('pro', server.url);
    const page = await signedInAt(t.email, t.password, `/${t.slug}/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks`);
    await page.getByLabel('Description').fill('Orders service');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Signing secret').first().waitFor();
    assert.equal(await page.getByLabel('Endpoint URL').inputValue(), '', 'the form is cleared');
    assert.equal(await page.getByLabel('Description').inputValue(), '');
    await page.getByText('Orders service').waitFor();
    await page.getByRole('link', { name: `${receiver.url}/hooks` }).click();
    await page.getByRole('heading', { name: 'Webhook' }).waitFor();
    await page.getByRole('definition').filter({ hasText: 'Orders service' }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const status = page.getByRole('status').filter({ hasText: /Test event: failed, 500/ });
    await status.waitFor();
    assert.equal(await status.getAttribute('class'), 'status-failed');
    assert.equal(await status.evaluate((el) => getComputedStyle(el).color), 'rgb(179, 38, 30)', 'the danger colour');
    assert.equal(receiver.received.length, 1);
    await assertPageBasics(page, '/{ws}/webhooks/{id}');
    await page.context().close();
  } finally {
    await receiver.close();
  }
});

test('OAuth client and invite forms clear after creating; the settings nav marks its page', { timeout: 90_000 }, async () => {
  const t = await team('pro', server.url);
  const page = await signedInAt(t.email, t.password, `/${t.slug}/settings/oauth-clients`);
  await page.getByRole('heading', { name: 'OAuth clients' }).waitFor();
  const current = page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'OAuth clients' });
  assert.equal(await current.getAttribute('aria-current'), 'page');
  assert.equal(await current.evaluate((el) => getComputedStyle(el).fontWeight), '600');
  const other = page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' });
  assert.equal(await other.getAttribute('aria-current'), null);
  await page.getByLabel('Name').fill('Deploy bot');
  await page.getByLabel('Redirect URIs').fill('http://127.0.0.1/callback');
  await page.getByRole('button', { name: 'Create OAuth client' }).click();
  await page.getByText('Client secret').first().waitFor();
  assert.equal(await page.getByLabel('Name').inputValue(), '');
  assert.equal(await page.getByLabel('Redirect URIs').inputValue(), '');

  await other.click();
  await page.getByRole('heading', { name: 'Members' }).waitFor();
  const email = `${unique('invitee-')}@example.test`;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send invite' }).click();
  await page.getByText(`Invite for ${email} created`).waitFor();
  assert.equal(await page.getByLabel('Email').inputValue(), '');
  // The invite's page names the workspace and who invited, before anyone signs in.
  const acceptUrl = await page.locator('.secret code').innerText();
  const { page: visitor } = await newPage(browser, 1280, server.url);
  await visitor.goto(acceptUrl.replace(/^https?:\/\/[^/]+/, server.url));
  const { data: ws } = await t.api.call('listWorkspaces', {});
  const { data: me } = await t.api.call('getMe', {});
  await visitor.getByTestId('invite-summary').filter({ hasText: `${me.name} invited ${email} to the workspace ${ws[0].name} as a member.` }).waitFor();
  await assertPageBasics(visitor, '/invites/{token}');
  await visitor.context().close();
  await page.context().close();
});

test('the workspace slug follows the name; a free plan sees the upgrade before the webhook form; dark mode', { timeout: 90_000 }, async () => {
  // The run's server applies the plans (HOP_PLANS=on).
  const t = await team('free');
  const page = await signedInAt(t.email, t.password, '/', new URL(DASHBOARD_URL).origin);
  await page.getByRole('heading', { name: 'Create a workspace' }).waitFor();
  await page.getByLabel('Name').fill('Café Crème Ltd');
  assert.equal(await page.getByLabel('Slug').inputValue(), 'cafe-creme-ltd');

  await page.goto(`${DASHBOARD_URL}/${t.slug}/webhooks`);
  await page.getByRole('heading', { name: 'Webhooks need the pro plan' }).waitFor();
  assert.equal(await page.getByLabel('Endpoint URL').count(), 0, 'no form to fill in first');
  await page.getByRole('link', { name: 'See plans and billing' }).click();
  await page.getByRole('heading', { name: 'Billing' }).waitFor();

  await page.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(22, 22, 26)');
  await assertAccessible(page, 'billing in dark mode');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(255, 255, 255)');
  await page.context().close();
});

test('the link page checks the destination now and shows its health', { timeout: 60_000 }, async () => {
  const destination = await startReceiver({ respond: () => 200 });
  try {
    const t = await team('pro', server.url);
    const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: `${destination.url}/page` } });
    const page = await signedInAt(t.email, t.password, `/${t.slug}/links/${link.id}`);
    await page.getByTestId('link-health').filter({ hasText: 'Not checked yet' }).waitFor();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByTestId('link-health').filter({ hasText: /OK \(HTTP 200\), checked / }).waitFor();
    const { data: checked } = await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: link.id } });
    assert.equal(checked.health?.status, 'ok');
    assert.ok(destination.received.length >= 1);
    await page.context().close();
  } finally {
    await destination.close();
  }
});

test('links import from a CSV file and export as the CLI writes them', { timeout: 60_000 }, async () => {
  const t = await team('pro', server.url);
  const page = await signedInAt(t.email, t.password, `/${t.slug}/links`);
  await page.getByRole('heading', { name: 'Links' }).waitFor();
  await page.locator('summary', { hasText: 'CSV import and export' }).click();
  const [a, b] = [unique('csv-a-'), unique('csv-b-')];
  const csv = `url,slug,tags,title\nhttps://example.com/a,${a},"one,two",First\nhttps://example.com/b,${b},,=SUM(1)\n`;
  await page.getByLabel('CSV file to import').setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await page.getByRole('status').filter({ hasText: 'Imported 2 of 2 links.' }).waitFor();
  const { data: links } = await t.api.call('listLinks', { params: { workspaceId: t.workspaceId } });
  assert.deepEqual(links.map((l) => l.slug).sort(), [a, b].sort());
  assert.deepEqual(links.find((l) => l.slug === a)?.tags, ['one', 'two']);
  await page.getByRole('link', { name: a }).waitFor();

  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  const text = readFileSync(await file.path(), 'utf8');
  const [header, ...rows] = text.trim().split('\n');
  assert.match(header, /^url,slug,domain,title,description,tags,expiresAt,expiredUrl,maxClicks,id,shortUrl,clicks,status,createdAt,updatedAt$/);
  assert.equal(rows.length, 2);
  assert.ok(rows.some((r) => r.startsWith(`https://example.com/a,${a},`)));
  assert.ok(rows.some((r) => r.startsWith(`https://example.com/b,${b},`) && r.includes(",'=SUM(1),")), 'a formula is neutralised');
  // A bad row is refused before anything is sent, naming its line.
  await page.getByLabel('CSV file to import').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('url,slug\nftp://x,ok\n') });
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await page.getByRole('alert').filter({ hasText: 'bad.csv: line 2: url: must be an absolute http or https URL' }).waitFor();
  await page.context().close();
});
