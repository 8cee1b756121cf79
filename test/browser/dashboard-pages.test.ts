// Every page of the dashboard, signed in as an owner of a workspace with data (links with clicks,
// a QR code, a webhook with deliveries, a domain, a key, an OAuth client, an invite), at desktop
// width and at 360 px: each has its <main>, no serious or critical axe violation and no sideways
// scroll. The webhooks flow runs here too, against a loopback HTTPS receiver (this file starts its
// own server, which may reach loopback). With HOP_DASHBOARD_SCREENSHOTS=dir (npm run screenshots),
// it also writes each main page's screenshot there.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_TOKEN, BROWSER_UA, eventually, team, type Team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver, throwAwayCertificate } from '../helpers/webhook-receiver.js';
import { assertAccessible, assertPageBasics, launchBrowser, newPage, signInUi } from '../helpers/dashboard-browser.js';

const SHOTS = process.env.HOP_DASHBOARD_SCREENSHOTS;
const cert = throwAwayCertificate();
const dataDir = mkdtempSync(join(tmpdir(), 'hop-dashboard-'));
let server: Awaited<ReturnType<typeof startServer>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let browser: Browser;
let t: Team;
const seeded: Record<string, string> = {};

async function visitLink(shortUrl: string, ua: string, ip: string, referer?: string) {
  const u = new URL(shortUrl);
  const res = await fetch(`${server.url}${u.pathname}`, { redirect: 'manual', headers: { 'user-agent': ua, 'x-forwarded-for': ip, ...(referer ? { referer } : {}) } });
  assert.equal(res.status, 302);
}

before(async () => {
  server = await startServer({
    dataDir,
    env: {
      HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_CLICK_FLUSH_MS: '50', HOP_TRUST_PROXY: '127.0.0.1',
      HOP_WEBHOOK_RETRY_SCALE: '0.01', NODE_EXTRA_CA_CERTS: cert.caFile,
    },
  });
  receiver = await startReceiver({ tls: cert });
  browser = await launchBrowser();
  t = await team('pro', server.url);
  const ws = { workspaceId: t.workspaceId };
  const made = [];
  for (const [slug, url, tags] of [['launch', 'https://example.com/launch', ['launch', 'q4']], ['getting-started', 'https://example.com/docs/getting-started', ['docs']], ['pricing', 'https://example.com/pricing', []]] as const) {
    made.push((await t.api.call('createLink', { params: ws, body: { url, slug, tags: [...tags] } })).data);
  }
  seeded.linkId = made[0].id;
  const visitors: [string, string, string?][] = [
    [BROWSER_UA.desktopChrome, '8.8.8.8', 'https://news.ycombinator.com/'], [BROWSER_UA.desktopChrome, '8.8.4.4'],
    [BROWSER_UA.iphoneSafari, '81.2.69.142', 'https://t.co/x'], [BROWSER_UA.ipad, '81.2.69.160'], [BROWSER_UA.iphoneSafari, '2.16.6.1'],
  ];
  for (const [ua, ip, ref] of visitors) await visitLink(made[0].shortUrl, ua, ip, ref);
  await visitLink(made[1].shortUrl, BROWSER_UA.desktopChrome, '8.8.8.8');
  await eventually(async () => ((await t.api.call('getLink', { params: { ...ws, linkId: made[0].id } })).data.clicks === 5 ? true : undefined), 10_000, 'clicks counted');
  await t.api.call('createQrCode', { params: { linkId: made[0].id }, body: { foregroundColor: '#1a1a6e' } });
  await t.api.call('addDomain', { params: ws, body: { name: `go-${t.slug}.example.test` } });
  await t.api.call('createApiKey', { params: ws, body: { name: 'CI deploys', scopes: ['links:read', 'links:write'] } });
  await t.api.call('createOAuthClient', { params: ws, body: { name: 'Zapier-like app', type: 'confidential', redirectUris: ['https://app.example.test/callback'] } });
  const invite = await t.api.call('createInvite', { params: ws, body: { email: 'teammate@example.test', role: 'member' } });
  seeded.inviteToken = invite.data.token;
});

after(async () => {
  await browser?.close();
  await receiver?.close();
  assert.equal(await server?.stop(), 0);
  rmSync(dataDir, { recursive: true, force: true });
});

const app = () => `${server.url}/app`;

async function settle(page: Page) {
  await page.locator('main h1').first().waitFor();
  // Wait for every loading state and lazy chunk (chart, designer) to finish.
  await page.waitForFunction(() => document.querySelectorAll('.loading').length === 0);
  await page.waitForLoadState('networkidle');
}

test('webhooks: create with events, secret shown once, URL listed, test, disable and enable, rotate, delivery attempts and retry', { timeout: 90_000 }, async () => {
  const { page, offsite } = await newPage(browser, 1280, server.url);
  await signInUi(page, t.email, t.password, `/login?next=${encodeURIComponent(`/${t.slug}/webhooks`)}`, app());
  await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
  const url = `${receiver.url}/hop`;
  await page.getByLabel('Endpoint URL').fill(url);
  await page.getByRole('checkbox', { name: 'link.updated' }).check();
  await page.getByRole('button', { name: 'Create webhook' }).click();
  const secret = await page.getByTestId('secret').innerText();
  assert.match(secret, /^whsec_/);
  await page.getByRole('link', { name: url }).waitFor();
  const { data: hooks } = await t.api.call('listWebhooks', { params: { workspaceId: t.workspaceId } });
  const hook = hooks.find((h) => h.url === url);
  assert.ok(hook);
  assert.deepEqual([...hook.events].sort(), ['link.created', 'link.updated']);
  seeded.webhookId = hook.id;
  await page.reload();
  await page.getByRole('link', { name: url }).waitFor();
  assert.equal(await page.getByText(secret).count(), 0, 'the secret is shown once');

  await page.getByRole('link', { name: url }).click();
  await page.getByRole('heading', { name: 'Webhook' }).waitFor();
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByRole('status').filter({ hasText: /Test event: delivered, 200/ }).waitFor();
  assert.ok(receiver.received.some((r) => r.path === '/hop'));
  await page.getByRole('button', { name: 'Disable' }).click();
  await page.getByRole('button', { name: 'Enable' }).waitFor();
  assert.equal((await t.api.call('getWebhook', { params: { workspaceId: t.workspaceId, webhookId: hook.id } })).data.isActive, false);
  await page.getByRole('button', { name: 'Enable' }).click();
  await page.getByRole('button', { name: 'Disable' }).waitFor();
  assert.equal((await t.api.call('getWebhook', { params: { workspaceId: t.workspaceId, webhookId: hook.id } })).data.isActive, true);
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = await page.getByTestId('secret').innerText();
  assert.match(rotated, /^whsec_/);
  assert.notEqual(rotated, secret);

  // The events change in place.
  await page.getByRole('checkbox', { name: 'link.deleted' }).check();
  await page.getByRole('button', { name: 'Save events' }).click();
  await page.getByRole('status').filter({ hasText: 'Events saved.' }).waitFor();
  assert.deepEqual([...(await t.api.call('getWebhook', { params: { workspaceId: t.workspaceId, webhookId: hook.id } })).data.events].sort(), ['link.created', 'link.deleted', 'link.updated']);

  // A real delivery: a link change, then its attempt in the log, and a retry under the same id.
  await t.api.call('updateLink', { params: { workspaceId: t.workspaceId, linkId: seeded.linkId }, body: { title: 'Launch' } });
  const delivery = await eventually(async () => {
    const { data } = await t.api.call('listDeliveries', { params: { workspaceId: t.workspaceId, webhookId: hook.id } });
    return data.find((d) => d.eventType === 'link.updated' && d.status === 'succeeded');
  }, 15_000, 'a delivered link.updated');
  await page.reload();
  await page.getByRole('cell', { name: new RegExp(delivery.id) }).waitFor();
  await page.getByText(/#1 .*: 200 in \d+ ms/).first().waitFor();
  const before = receiver.received.length;
  await page.getByRole('row', { name: new RegExp(delivery.id) }).getByRole('button', { name: 'Retry' }).click();
  await page.getByRole('status').filter({ hasText: 'Retry queued.' }).waitFor();
  await eventually(async () => (receiver.received.length > before ? true : undefined), 15_000, 'the retried delivery');
  assert.equal(receiver.received.at(-1)!.headers['x-hop-webhook-id'], delivery.id);
  await assertPageBasics(page, '/{ws}/webhooks/{id}');
  assert.deepEqual(offsite, []);
  await page.context().close();
});

const signedInPages = () => [
  ['workspaces', '/'],
  ['links', `/${t.slug}/links`],
  ['link-new', `/${t.slug}/links/new`],
  ['link-detail', `/${t.slug}/links/${seeded.linkId}`],
  ['analytics', `/${t.slug}/analytics`],
  ['domains', `/${t.slug}/domains`],
  ['webhooks', `/${t.slug}/webhooks`],
  ...(seeded.webhookId ? [['webhook-detail', `/${t.slug}/webhooks/${seeded.webhookId}`]] : []),
  ['settings', `/${t.slug}/settings`],
  ['members', `/${t.slug}/settings/members`],
  ['keys', `/${t.slug}/settings/keys`],
  ['oauth-clients', `/${t.slug}/settings/oauth-clients`],
  ['ci-trusts', `/${t.slug}/settings/ci-trusts`],
  ['billing', `/${t.slug}/settings/billing`],
  ['account', '/account'],
  ['not-found', '/some/unknown/page/here'],
];

/**
 * At 360 px a table's rows are cards: no header row shown, every cell inside the screen (what
 * matters is seen without scrolling the table), and no row much taller than its content.
 */
async function assertCardsFit(page: Page, name: string) {
  const tables = await page.evaluate(() => [...document.querySelectorAll('table.data-table')].map((t) => ({
    head: (t.querySelector('thead') as HTMLElement).getBoundingClientRect().height,
    cells: [...t.querySelectorAll('tbody td')].map((td) => {
      const r = td.getBoundingClientRect();
      return { text: (td.textContent ?? '').slice(0, 40), left: r.left, right: r.right, shown: r.width > 0 };
    }),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => {
      const tall = tr.getBoundingClientRect().height;
      const content = [...tr.children].reduce((h, td) => h + (td as HTMLElement).getBoundingClientRect().height, 0);
      return { tall, content };
    }),
  })));
  for (const t of tables) {
    assert.ok(t.head <= 1, `${name}: the header row is not shown on a phone`);
    for (const c of t.cells.filter((c) => c.shown)) assert.ok(c.left >= 0 && c.right <= 360, `${name}: cell "${c.text}" is within the screen (${c.left}..${c.right})`);
    // A card is as tall as its cells stacked at most (plus its padding): no blank band.
    for (const r of t.rows) assert.ok(r.tall <= r.content + 40, `${name}: a row ${r.tall}px tall for ${r.content}px of cells`);
  }
}

for (const width of [1280, 360]) {
  test(`every page at ${width} px: <main>, axe without serious or critical violations, no sideways scroll`, { timeout: 180_000 }, async () => {
    const { page, offsite } = await newPage(browser, width, server.url);
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    const shoot = async (name: string) => {
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-${width === 360 ? 'mobile' : 'desktop'}.png`), fullPage: width === 360 });
    };
    // Each page has a title of its own and a description (set once the page's address is routed).
    const titles = new Map<string, string>();
    const assertOwnTitle = async (name: string) => {
      await page.waitForFunction(() => document.title !== 'Hop');
      const title = await page.title();
      assert.match(title, / · Hop$/, `${name}'s title`);
      assert.ok(![...titles.values()].includes(title), `${name}'s title "${title}" is its own (${JSON.stringify([...titles])})`);
      titles.set(name, title);
      assert.ok((await page.locator('meta[name="description"]').getAttribute('content'))?.length, `${name} has a description`);
    };
    for (const [name, path] of [['signup', '/signup'], ['login', '/login'], ['invite', `/invites/${seeded.inviteToken}`]]) {
      await page.goto(`${app()}${path}`);
      await settle(page);
      await assertPageBasics(page, `${path} at ${width} px`);
      await assertOwnTitle(name);
      await shoot(name);
    }
    await signInUi(page, t.email, t.password, '/login', app());
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    for (const [name, path] of signedInPages()) {
      // Each page opens by its URL with a full load: the session survives it.
      await page.goto(`${app()}${path}`);
      await settle(page);
      await assertPageBasics(page, `${path} at ${width} px`);
      await assertOwnTitle(name);
      if (width === 360) await assertCardsFit(page, name);
      await shoot(name);
    }
    // The QR designer, loaded on demand.
    await page.goto(`${app()}/${t.slug}/links/${seeded.linkId}`);
    await settle(page);
    await page.getByRole('button', { name: 'New QR code' }).click();
    await page.getByRole('button', { name: 'Create QR code' }).waitFor();
    await assertPageBasics(page, `QR designer at ${width} px`);
    await page.getByRole('heading', { name: 'QR codes' }).scrollIntoViewIfNeeded();
    if (SHOTS && width === 1280) await page.screenshot({ path: join(SHOTS, 'qr-designer-desktop.png') });
    assert.deepEqual(offsite, []);
    await page.context().close();
  });
}

test('keyboard only: sign in, open a link and reach its copy button without a mouse', { timeout: 60_000 }, async () => {
  const { page } = await newPage(browser, 1280, server.url);
  await page.goto(`${app()}/login`);
  await page.getByRole('heading', { name: 'Sign in to Hop' }).waitFor();
  const focusOn = async (label: string, max = 12) => {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const name = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el) return '';
        const id = el.getAttribute('id');
        const label = id ? document.querySelector(`label[for="${id}"]`)?.textContent : null;
        return (label ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
      });
      if (name === label) return;
    }
    throw new Error(`Tab never reached ${label}`);
  };
  await focusOn('Email');
  await page.keyboard.type(t.email);
  await focusOn('Password');
  await page.keyboard.type(t.password);
  await page.keyboard.press('Enter');
  // Each page's heading shows before its list has loaded: the Tab walk starts once the entry it
  // looks for is there (started earlier, it could pass the list's place before the rows came).
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  await page.getByRole('link', { name: 'Test Workspace', exact: true }).waitFor();
  await focusOn('Test Workspace', 20);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Links' }).waitFor();
  await page.getByRole('link', { name: 'launch', exact: true }).waitFor();
  await focusOn('launch', 40);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'launch' }).waitFor();
  await focusOn('Copy short URL', 30);
  // The focus is visible: an outline is drawn around the focused control.
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  assert.notEqual(outline, 'none');
  await page.context().close();
});

test('the confirm dialog at 360 px: Cancel and Escape keep the key, its named button revokes it', { timeout: 60_000 }, async () => {
  const params = { workspaceId: t.workspaceId };
  await t.api.call('createApiKey', { params, body: { name: 'Temporary', scopes: ['links:read'] } });
  const listed = async () => (await t.api.call('listApiKeys', { params })).data.some((k) => k.name === 'Temporary');
  const { page } = await newPage(browser, 360, server.url);
  await signInUi(page, t.email, t.password, `/login?next=${encodeURIComponent(`/${t.slug}/settings/keys`)}`, app());
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  // The rows keep their table roles on a phone, where they are drawn as cards.
  const row = page.getByRole('row', { name: /Temporary/ });
  const dialog = page.getByRole('dialog', { name: 'Revoke the key “Temporary”? Whatever uses it stops working.' });
  await row.getByRole('button', { name: 'Revoke' }).click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  await row.getByRole('button', { name: 'Revoke' }).click();
  // Focus starts on Cancel: Enter never destroys by accident.
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await listed(), true, 'Cancel and Escape keep the key');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await assertAccessible(page, 'the confirm dialog');
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await row.waitFor({ state: 'detached' });
  assert.equal(await listed(), false);
  await page.context().close();
});
