// The OAuth authorization code + PKCE flow in headless Chromium (docs/api.md, Access): the login form, the
// consent page (client, workspace picker, scopes in plain words), Approve → a code at a loopback
// redirect this test listens on; then `hop login --no-browser` end to end with this test playing
// the browser, the stored tokens (0600), refresh with rotation, reuse detection and logout.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { API_URL, client, team, type Team } from '../helpers/api.js';
import { authorizeUrl, CLI_CLIENT, oauthPost, pkce } from '../helpers/oauth.js';
import { hopSession } from '../cli/run-hop.js';
import { spawnHop } from '../cli/tail-process.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];
const SCREENSHOTS = process.env.HOP_TEST_SCREENSHOTS;

let browser: Browser;
let callback: Server;
let callbackUrl: string;
const arrivals: URL[] = [];

before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium to run the browser tests`);
  // The loopback redirect of a native app (RFC 8252), here played by the test.
  callback = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (u.pathname === '/favicon.ico') return void res.writeHead(404).end();
    arrivals.push(u);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Back</title><h1>back at the app</h1>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, timeout: 15_000 });
});

after(async () => {
  await browser?.close();
  callback?.closeAllConnections();
  await new Promise((resolve) => (callback ? callback.close(resolve) : resolve(undefined)));
});

async function freshPage(): Promise<Page> {
  const context = await browser.newContext();
  context.setDefaultTimeout(5_000);
  return context.newPage();
}

/** Signs in on the login form and approves on the consent page for `workspaceSlug`. */
async function signInAndApprove(page: Page, t: Pick<Team, 'email' | 'password'>, workspaceSlug: string, shot?: string) {
  await page.getByRole('heading', { name: 'Sign in to Hop' }).waitFor();
  if (SCREENSHOTS && shot) await page.screenshot({ path: join(SCREENSHOTS, `${shot}-login.png`), fullPage: true });
  await page.getByLabel('E-mail').fill(t.email);
  await page.getByLabel('Password').fill(t.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /^Allow / }).waitFor();
  if (SCREENSHOTS && shot) await page.screenshot({ path: join(SCREENSHOTS, `${shot}-consent.png`), fullPage: true });
  const option = page.locator('#workspace option', { hasText: workspaceSlug });
  await page.getByLabel('Workspace').selectOption(await option.getAttribute('value') ?? '');
  await page.getByRole('button', { name: 'Approve' }).click();
}

test('Chromium: login form, consent naming client, workspace and scopes, Approve → code and state at the loopback redirect', { timeout: 30_000 }, async () => {
  const t = await team();
  // A second workspace, so the picker matters: the grant is for the one chosen.
  const other = await team();
  await addMemberByInvite(other, t);
  const { verifier, challenge } = pkce();
  const page = await freshPage();
  try {
    await page.goto(authorizeUrl({ clientId: CLI_CLIENT, redirectUri: callbackUrl, scope: 'links:read links:write keys:manage', state: 'st-42', challenge }));
    await page.getByRole('heading', { name: 'Sign in to Hop' }).waitFor();
    // A wrong password shows the form again with an alert.
    await page.getByLabel('E-mail').fill(t.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.match(await page.getByRole('alert').innerText(), /Wrong e-mail or password/);

    await page.getByLabel('Password').fill(t.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Allow Hop CLI?' }).waitFor();
    const text = await page.locator('main').innerText();
    for (const words of ['See your links', 'Create, change and delete links', 'Create and revoke API keys', t.email]) assert.ok(text.includes(words), `consent shows "${words}"`);
    assert.ok(!text.includes('See click and scan statistics'), 'only the requested scopes are listed');
    const options = await page.locator('#workspace option').allInnerTexts();
    assert.equal(options.length, 2);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'hop_oauth_session');
    assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
    assert.equal(session?.sameSite, 'Lax');

    const before = arrivals.length;
    await page.getByLabel('Workspace').selectOption(other.workspaceId);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'back at the app' }).waitFor();
    const arrived = arrivals.slice(before).at(-1)!;
    assert.equal(arrived.pathname, '/callback');
    assert.equal(arrived.searchParams.get('state'), 'st-42');
    const code = arrived.searchParams.get('code')!;
    const tokens = await oauthPost('token', { grant_type: 'authorization_code', client_id: CLI_CLIENT, code, redirect_uri: callbackUrl, code_verifier: verifier });
    assert.equal(tokens.status, 200);
    assert.equal(tokens.body.workspace_id, other.workspaceId, 'the default workspace is the one picked on the consent page');
    assert.equal(tokens.body.scope, 'links:read links:write keys:manage');
    const api = client({ token: String(tokens.body.access_token) });
    await api.call('listLinks', { params: { workspaceId: other.workspaceId } });
    // The CLI's own login is not bound to it: it acts in each of the user's workspaces (docs/cli.md).
    await api.call('listLinks', { params: { workspaceId: t.workspaceId } });
    const stranger = await team();
    await assert.rejects(api.call('listLinks', { params: { workspaceId: stranger.workspaceId } }), { code: 'NOT_FOUND' });

    // Signed in already (the cookie): the next authorization goes straight to consent; Deny → access_denied.
    await page.goto(authorizeUrl({ clientId: CLI_CLIENT, redirectUri: callbackUrl, state: 'st-43', challenge }));
    await page.getByRole('heading', { name: 'Allow Hop CLI?' }).waitFor();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByRole('heading', { name: 'back at the app' }).waitFor();
    const denied = arrivals.at(-1)!;
    assert.equal(denied.searchParams.get('error'), 'access_denied');
    assert.equal(denied.searchParams.get('state'), 'st-43');
    assert.equal(denied.searchParams.get('code'), null);
  } finally {
    await page.context().close();
  }
});

test('Chromium: an unregistered redirect URI shows an error page and the browser stays on Hop', { timeout: 20_000 }, async () => {
  const page = await freshPage();
  try {
    const before = arrivals.length;
    const res = await page.goto(authorizeUrl({ clientId: CLI_CLIENT, redirectUri: callbackUrl.replace('/callback', '/elsewhere'), state: 'x', challenge: pkce().challenge }));
    assert.equal(res?.status(), 400);
    assert.ok(page.url().startsWith(API_URL));
    await page.getByRole('heading', { name: 'Cannot continue' }).waitFor();
    assert.equal(arrivals.length, before, 'nothing reached the redirect URI');
  } finally {
    await page.context().close();
  }
});

test('hop login --no-browser: the printed URL, played in Chromium, logs the CLI in; tokens 0600, refreshed, reuse revokes, logout revokes', { timeout: 60_000 }, async () => {
  const t = await team();
  const hop = hopSession();
  const login = spawnHop(['login', '--no-browser', '--json'], { HOP_CONFIG_DIR: hop.configDir, HOP_API_URL: API_URL });
  const page = await freshPage();
  try {
    const [url] = await login.waitForStderr(/http:\/\/\S+\/v1\/oauth\/authorize\?\S+/, 15_000, 'the login URL');
    const u = new URL(url);
    assert.equal(u.searchParams.get('client_id'), 'hop-cli');
    assert.equal(u.searchParams.get('code_challenge_method'), 'S256');
    assert.match(u.searchParams.get('redirect_uri')!, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.ok(u.searchParams.get('state'));
    await page.goto(url);
    await signInAndApprove(page, t, t.slug, 'cli');
    await page.getByRole('heading', { name: 'Logged in to Hop' }).waitFor();
    assert.equal(await login.exitWithin(15_000), 0, login.stderr());
    const result = JSON.parse(login.stdout());
    assert.equal(result.user.id, t.userId);
    assert.equal(result.credentialKind, 'oauth');
    assert.equal(result.workspace.id, t.workspaceId);
  } finally {
    await login.stop();
    await page.context().close();
  }

  const file = join(hop.configDir, 'config.json');
  assert.equal(statSync(file).mode & 0o777, 0o600, 'the tokens file is private');
  const stored = JSON.parse(readFileSync(file, 'utf8'));
  assert.match(stored.credential, /^hopat_/);
  assert.match(stored.oauth.refreshToken, /^hoprt_/);

  const me = await hop.json<{ credentialKind: string; workspace: string; scopes: string[]; expiresAt: string }>(['whoami']);
  assert.equal(me.credentialKind, 'oauth');
  assert.equal(me.workspace, t.workspaceId);
  assert.ok(me.scopes.includes('keys:manage'), 'the CLI gets every scope by default, keys:manage too');
  assert.ok(Math.abs(Date.parse(me.expiresAt) - Date.now() - 3600e3) < 120e3, 'the access token lasts an hour');
  const human = await hop.run(['whoami']);
  for (const part of [t.email, t.workspaceId, 'links:write', me.expiresAt]) assert.ok(human.stdout.includes(part), `whoami shows ${part}`);
  const created = await hop.json<{ url: string }>(['links', 'create', 'https://example.com/from-cli']);
  assert.equal(created.url, 'https://example.com/from-cli');

  // The access token "expires": the next command refreshes it first, rotating the refresh token.
  writeFileSync(file, JSON.stringify({ ...stored, oauth: { ...stored.oauth, expiresAt: new Date(Date.now() - 1000).toISOString() } }), { mode: 0o600 });
  const listed = await hop.json<unknown[]>(['links', 'list']);
  assert.equal(listed.length, 1);
  const refreshed = JSON.parse(readFileSync(file, 'utf8'));
  assert.notEqual(refreshed.credential, stored.credential);
  assert.notEqual(refreshed.oauth.refreshToken, stored.oauth.refreshToken);
  assert.ok(Date.parse(refreshed.oauth.expiresAt) > Date.now() + 3500e3);
  assert.equal(statSync(file).mode & 0o777, 0o600);

  // Someone replays the old refresh token: the grant is revoked, and the CLI must log in again.
  const replay = await oauthPost('token', { grant_type: 'refresh_token', client_id: CLI_CLIENT, refresh_token: stored.oauth.refreshToken });
  assert.equal(replay.body.error, 'invalid_grant');
  const after = await hop.run(['whoami']);
  assert.equal(after.code, 4, after.stderr);
  assert.match(after.stderr, /UNAUTHORIZED/);
});

test('hop logout revokes a browser login on the server', { timeout: 60_000 }, async () => {
  const t = await team();
  const hop = hopSession();
  const login = spawnHop(['login', '--no-browser', '--scope', 'links:read', '--scope', 'workspaces:read'], { HOP_CONFIG_DIR: hop.configDir, HOP_API_URL: API_URL });
  const page = await freshPage();
  try {
    const [url] = await login.waitForStderr(/http:\/\/\S+\/v1\/oauth\/authorize\?\S+/, 15_000, 'the login URL');
    assert.equal(new URL(url).searchParams.get('scope'), 'links:read workspaces:read');
    await page.goto(url);
    await signInAndApprove(page, t, t.slug);
    assert.equal(await login.exitWithin(15_000), 0, login.stderr());
  } finally {
    await login.stop();
    await page.context().close();
  }
  const { credential } = JSON.parse(readFileSync(join(hop.configDir, 'config.json'), 'utf8'));
  const me = await hop.json<{ scopes: string[] }>(['whoami']);
  assert.deepEqual(me.scopes, ['links:read', 'workspaces:read']);
  assert.deepEqual(await hop.json(['logout']), { apiUrl: API_URL, removed: true, revoked: true });
  await assert.rejects(client({ token: credential }).call('getMe', {}), { code: 'UNAUTHORIZED' });
  assert.doesNotMatch(readFileSync(join(hop.configDir, 'config.json'), 'utf8'), /hopat_|hoprt_/);
});

/** `member` joins `owner`'s workspace through an invite (helper for the picker). */
async function addMemberByInvite(owner: Team, member: Pick<Team, 'email' | 'api'>) {
  const { data } = await owner.api.call('createInvite', { params: { workspaceId: owner.workspaceId }, body: { email: member.email, role: 'member' } });
  await member.api.call('acceptInvite', { params: { token: data.token } });
}
