// Accounts in the dashboard (docs/api.md, Accounts), in headless Chromium through the real server:
// change the password, the sessions list and "sign out everywhere else", sign-out ending the token
// on the server, forgot/reset password, and connected apps; each result checked through the API.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, anonymous, client, fails, randomAddress, signup, succeeds, team } from '../helpers/api.js';
import { assertPageBasics, DASHBOARD_URL, launchBrowser, newPage, signInUi } from '../helpers/dashboard-browser.js';
import { oauthTokens } from '../helpers/oauth.js';

let browser: Browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

const tokenIn = (page: import('playwright-core').Page) => page.evaluate(() => (JSON.parse(localStorage.getItem('hop.session') ?? '{}') as { token?: string }).token ?? '');

test('account page: change the password, list sessions, sign out everywhere else; sign-out ends the token on the server', { timeout: 90_000 }, async () => {
  const a = await signup();
  const { page } = await newPage(browser);
  await signInUi(page, a.email, a.password);
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  await page.goto(`${DASHBOARD_URL}/account`);
  await page.getByRole('heading', { name: 'Sessions' }).waitFor();
  await page.getByText('(this session)').waitFor();
  await assertPageBasics(page, '/account');
  assert.equal(await page.getByRole('region', { name: 'Sessions' }).locator('tbody tr').count(), 2);

  // A weak password is refused at its field, saying why.
  await page.getByLabel('Current password').fill(a.password);
  await page.getByLabel('New password').fill('iloveyou1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByRole('alert').filter({ hasText: /most common/ }).waitFor();
  await page.getByLabel('New password').fill('changed in the dashboard');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByRole('status').filter({ hasText: /Password changed\. 1 other session was signed out/ }).waitFor();
  await fails(a.api, 'getMe', {}, 'UNAUTHORIZED');
  await anonymous.call('login', { body: { email: a.email, password: 'changed in the dashboard' } });

  // That login is another session: "sign out everywhere else" ends it.
  await page.reload();
  await page.getByRole('region', { name: 'Sessions' }).locator('tbody tr').nth(1).waitFor();
  const { data: other } = await anonymous.call('login', { body: { email: a.email, password: 'changed in the dashboard' } });
  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  // The dashboard's confirm dialog asks first, naming what its button does.
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere else' }).click();
  await page.getByRole('status').filter({ hasText: /Signed out everywhere else/ }).waitFor();
  await fails(client({ token: other.token }), 'getMe', {}, 'UNAUTHORIZED');

  // The header's sign-out ends this session on the server, not only in the browser.
  const token = await tokenIn(page);
  await succeeds(client({ token }), 'getMe', {});
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('heading', { name: 'Sign in to Hop' }).waitFor();
  await fails(client({ token }), 'getMe', {}, 'UNAUTHORIZED');
  await page.context().close();
});

test('forgot password and the reset page: a link sets a new password', { timeout: 90_000 }, async () => {
  const a = await signup();
  const { page } = await newPage(browser);
  await page.goto(`${DASHBOARD_URL}/login`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await assertPageBasics(page, '/forgot-password');
  await page.getByLabel('Email').fill(a.email);
  await page.getByRole('button', { name: 'Send a reset link' }).click();
  await page.getByRole('status').filter({ hasText: /a link to choose a new password is on its way/ }).waitFor();

  // This server sends no mail: the operator hands the link over.
  const res = await client().raw('POST', `/v1/admin/users/${a.userId}/password-reset`, { headers: { 'x-admin-token': ADMIN_TOKEN, 'x-forwarded-for': randomAddress() } });
  assert.equal(res.status, 201, res.text);
  const link = new URL((res.body as { data: { url: string } }).data.url);
  await page.goto(`${DASHBOARD_URL}/reset-password${link.hash}`);
  await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  await assertPageBasics(page, '/reset-password');
  await page.getByLabel('New password').fill('password1');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await page.getByRole('alert').filter({ hasText: /most common/ }).waitFor();
  await page.getByLabel('New password').fill('reset in the browser');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await page.getByRole('status').filter({ hasText: /Your password is changed/ }).waitFor();
  await fails(a.api, 'getMe', {}, 'UNAUTHORIZED');
  await page.getByRole('link', { name: 'Sign in' }).last().click();
  await signInUi(page, a.email, 'reset in the browser');
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  // Used once: the same link now says so.
  await page.goto(`${DASHBOARD_URL}/reset-password${link.hash}`);
  await page.getByLabel('New password').fill('another new phrase');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await page.getByRole('alert').filter({ hasText: /already used or expired/ }).waitFor();
  await page.context().close();
});

test('connected apps: the CLI login is listed and revoked from the dashboard', { timeout: 90_000 }, async () => {
  const t = await team();
  const cli = await oauthTokens(t, t.workspaceId);
  const { page } = await newPage(browser);
  await signInUi(page, t.email, t.password);
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  await page.goto(`${DASHBOARD_URL}/account`);
  await page.getByRole('link', { name: 'Connected apps' }).first().click();
  await page.getByRole('heading', { name: 'Connected apps' }).waitFor();
  await page.getByRole('cell', { name: 'Hop CLI', exact: true }).waitFor();
  await assertPageBasics(page, '/account/apps');
  await page.getByRole('button', { name: 'Revoke Hop CLI' }).click();
  await page.getByRole('dialog', { name: /Revoke Hop CLI\?/ }).getByRole('button', { name: 'Revoke' }).click();
  await page.getByText('No app is connected to your account.').waitFor();
  await fails(client({ token: cli.access_token }), 'getMe', {}, 'UNAUTHORIZED');
  await page.context().close();
});
