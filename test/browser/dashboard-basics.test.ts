// The dashboard (docs/api.md) in headless Chromium through the real server: served under /app with
// hashed, long-cached assets and the HTML security headers; sign up, create a workspace, see links
// (checked through the API); a viewer is offered no create-link control; sessions survive a reload
// and sign out; each page passes axe and fits 360 px.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { addMember, anonymous, API_URL, client, team, unique } from '../helpers/api.js';
import { assertPageBasics, DASHBOARD_URL, launchBrowser, newPage, signInUi } from '../helpers/dashboard-browser.js';

let browser: Browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

test('every path under /app answers the app with security headers; hashed assets are immutable; app is a reserved slug', async () => {
  for (const path of ['/app', '/app/', '/app/some/unknown/page', '/app/ws-x/links/lnk_123']) {
    const res = await anonymous.raw('GET', path);
    assert.equal(res.status, 200, path);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
    assert.doesNotMatch(String(res.headers['content-security-policy']), /unsafe-inline|unsafe-eval/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.ok(res.headers['referrer-policy']);
    assert.match(res.text, /<div id="root">/);
  }
  const html = (await anonymous.raw('GET', '/app/')).text;
  const scripts = [...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  assert.ok(scripts.some((s) => s.endsWith('.js')), 'the HTML names its scripts');
  for (const name of scripts) {
    assert.match(name, /-[A-Za-z0-9_-]{8}\.(js|css)$/, 'content-hashed name');
    const res = await anonymous.raw('GET', `/app/assets/${name}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
  }
  assert.equal((await anonymous.raw('GET', '/app/assets/missing-0000000.js')).status, 404);
  const t = await team();
  await assert.rejects(t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com', slug: 'app' } }),
    (e: { code: string }) => e.code === 'VALIDATION_ERROR');
});

/** An asset's raw bytes and headers, asking for `acceptEncoding` (the typed client would decode it). */
function rawAsset(path: string, acceptEncoding: string): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${API_URL}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d)).on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) })).on('error', reject);
    }).on('error', reject);
  });
}

test('assets are sent brotli-compressed to a browser that accepts it, else gzip, else as they are', async () => {
  const html = (await anonymous.raw('GET', '/app/')).text;
  const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)![1];
  const plain = await rawAsset(`/app/${script}`, 'identity');
  assert.equal(plain.headers['content-encoding'], undefined);
  const br = await rawAsset(`/app/${script}`, 'gzip, deflate, br, zstd');
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers.vary, 'accept-encoding');
  assert.deepEqual(brotliDecompressSync(br.body), plain.body);
  const gzip = await rawAsset(`/app/${script}`, 'gzip');
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.deepEqual(gunzipSync(gzip.body), plain.body);
  assert.ok(br.body.length < gzip.body.length, `brotli ${br.body.length} bytes, gzip ${gzip.body.length}`);
  // The build's compressed copies are not assets of their own.
  assert.equal((await anonymous.raw('GET', `/app/${script}.br`)).status, 404);
});

test("a page's HTML preloads that page's chunks, beyond those every page loads", async () => {
  const preloads = async (path: string) => [...(await anonymous.raw('GET', path)).text.matchAll(/rel="modulepreload"[^>]*href="\.\/assets\/([^"]+)"/g)].map((m) => m[1]);
  const everyPage = await preloads('/app/no/such/page/here');
  const own = async (path: string) => (await preloads(path)).filter((f) => !everyPage.includes(f));
  assert.ok((await own('/app/login')).some((f) => f.startsWith('login-')), 'the sign-in page preloads its chunk');
  const linkPage = await own('/app/ws-x/links/lnk_123');
  assert.ok(linkPage.some((f) => f.startsWith('link-detail-')), `the link page preloads its chunk: ${linkPage.join(', ')}`);
  assert.ok(!linkPage.some((f) => f.startsWith('links-list-') || f.startsWith('link-new-')), 'and no other page\'s');
  assert.ok((await own('/app/ws-x/links/new')).some((f) => f.startsWith('link-new-')), 'a fixed segment wins over a parameter');
});

test('sign up, create a workspace, see its links; the session survives a reload; sign out discards it', { timeout: 60_000 }, async () => {
  const { page, offsite } = await newPage(browser);
  const email = `${unique('web')}@example.test`;
  await page.goto(`${DASHBOARD_URL}/signup`);
  await assertPageBasics(page, '/signup');
  // The form validates with the server's schema before sending.
  await page.getByLabel('Name').fill('Web Person');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('alert').filter({ hasText: /8/ }).first().waitFor();
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  await assertPageBasics(page, '/');

  const slug = unique('web-');
  await page.getByLabel('Name').fill('Web Team');
  await page.getByLabel('Slug').fill(slug);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByRole('heading', { name: 'Links' }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/app/${slug}/links`);
  await page.getByText('No links yet').waitFor();

  // Checked through the API: the account and workspace exist, and a link made there shows up.
  const { data: auth } = await anonymous.call('login', { body: { email, password: 'correct horse battery' } });
  const api = client({ token: auth.token });
  const ws = (await api.call('listWorkspaces', {})).data.find((w) => w.slug === slug);
  assert.ok(ws);
  assert.equal(ws.role, 'owner');
  await api.call('createLink', { params: { workspaceId: ws.id }, body: { url: 'https://example.com/docs', slug: 'docs-web', tags: ['launch'] } });
  await page.reload();
  await page.getByRole('link', { name: 'docs-web' }).waitFor();
  await assertPageBasics(page, '/{ws}/links');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Hop' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.length), 0, 'the token is gone');
  await page.goto(`${DASHBOARD_URL}/${slug}/links`);
  await page.getByRole('heading', { name: 'Sign in to Hop' }).waitFor();
  await assertPageBasics(page, '/login');
  // Signing in comes back to the page asked for.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'docs-web' }).waitFor();
  assert.deepEqual(offsite, []);
  await page.context().close();
});

test('a viewer is offered no create-link control and no row selection; the page fits 360 px', { timeout: 60_000 }, async () => {
  const t = await team();
  await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/a', slug: unique('v') } });
  const viewer = await addMember(t, 'viewer');
  const { page } = await newPage(browser, 360);
  await signInUi(page, viewer.email, viewer.password, `/login?next=${encodeURIComponent(`/${t.slug}/links`)}`);
  await page.getByRole('heading', { name: 'Links' }).waitFor();
  await page.locator('table tbody tr').first().waitFor();
  const create = page.getByRole('link', { name: 'Create link' });
  assert.equal(await create.count(), 0, 'no create link');
  const button = page.getByRole('button', { name: 'Create link' });
  if (await button.count()) assert.ok(await button.isDisabled());
  assert.equal(await page.getByRole('checkbox').count(), 0);
  await assertPageBasics(page, '/{ws}/links at 360 px');
  await page.context().close();
  assert.ok(API_URL);
});


test('a member is offered Delete on the QR codes they made, not on an admin\'s, as the server decides', { timeout: 60_000 }, async () => {
  const t = await team('pro');
  const member = await addMember(t, 'member');
  // An admin's link (the member may not change it) with an admin's QR code, and the member's own link and code.
  const { data: theirs } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/theirs' } });
  const { data: theirQr } = await t.api.call('createQrCode', { params: { linkId: theirs.id }, body: {} });
  const { data: mine } = await member.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/mine' } });
  await member.api.call('createQrCode', { params: { linkId: mine.id }, body: {} });
  await assert.rejects(member.api.call('deleteQrCode', { params: { qrId: theirQr.id } }), (e: { code: string }) => e.code === 'FORBIDDEN');

  const { page } = await newPage(browser);
  await signInUi(page, member.email, member.password, `/login?next=${encodeURIComponent(`/${t.slug}/links/${mine.id}`)}`);
  await page.getByRole('heading', { name: 'QR codes' }).waitFor();
  await page.getByRole('button', { name: 'Delete' }).first().waitFor();
  await page.goto(`${DASHBOARD_URL}/${t.slug}/links/${theirs.id}`);
  await page.getByRole('heading', { name: 'QR codes' }).waitFor();
  await page.getByRole('link', { name: /download/i }).first().waitFor();
  assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0, 'no Delete the server would refuse');
});
