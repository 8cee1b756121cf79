// Sign-up in the dashboard returns to an OAuth page only when `next` is exactly one, once the
// browser has resolved it: `/v1/oauth/../../evil` is refused rather than followed to `/evil`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { API_URL, unique } from '../helpers/api.js';
import { DASHBOARD_URL, launchBrowser, newPage } from '../helpers/dashboard-browser.js';
import { authorizeUrl, CLI_CLIENT, pkce } from '../helpers/oauth.js';

let browser: Browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

async function signUpWithNext(page: Page, next: string) {
  await page.goto(`${DASHBOARD_URL}/signup?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Name').fill('Next Person');
  await page.getByLabel('Email').fill(`${unique('next')}@example.test`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
}

test('sign-up never follows a next that only starts like an OAuth path', { timeout: 60_000 }, async () => {
  for (const next of ['/v1/oauth/../../evil', '/v1/oauth/%2e%2e/%2e%2e/evil', '/v1/oauth/authorize/../../../evil']) {
    const { page, context } = await newPage(browser);
    await signUpWithNext(page, next);
    // It stays in the app (the next is a path of the app at most), never at the server's /evil.
    await page.waitForURL((u) => !u.pathname.endsWith('/signup'), { timeout: 10_000 });
    assert.ok(new URL(page.url()).pathname.startsWith('/app'), `${next} led to ${page.url()}`);
    await context.close();
  }
});

test('sign-up goes back to the OAuth page it came from', { timeout: 60_000 }, async () => {
  const { page, context } = await newPage(browser);
  const authorize = new URL(authorizeUrl({ clientId: CLI_CLIENT, redirectUri: 'http://127.0.0.1:45998/callback', challenge: pkce().challenge }));
  await signUpWithNext(page, authorize.pathname + authorize.search);
  await page.waitForURL((u) => u.pathname === '/v1/oauth/authorize', { timeout: 10_000 });
  assert.equal(new URL(page.url()).origin, new URL(API_URL).origin);
  await context.close();
});
