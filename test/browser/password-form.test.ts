// The password form of a protected link, in headless Chromium (docs/api.md, The redirector): the form hides the
// destination, a wrong password answers 401 with an error, the right one sets the unlock cookie and
// lands on the destination, the cookie lets the next visit through, and 5 failures lock out.
// Needs Debian's chromium (.ci/run installs it); playwright-core drives it, pinned to a version
// that speaks its protocol (docs/adr/).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import type { Link } from '@hop/shared';
import { team } from '../helpers/api.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];
const PASSWORD = 'open sesame';
/** Where to save screenshots of the pages, when set (to look at them). */
const SCREENSHOTS = process.env.HOP_TEST_SCREENSHOTS;

let browser: Browser;
let destination: Server;
let destinationUrl: string;
let link: Link;

before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does) to run the browser tests`);
  }
  // The page a visitor should reach: served here on loopback, so arriving is observable.
  destination = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Destination</title><h1>arrived</h1>');
  });
  await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
  destinationUrl = `http://127.0.0.1:${(destination.address() as AddressInfo).port}/landing`;

  const { chromium } = await import('playwright-core');
  // launch() gives every run a fresh temporary profile (its own --user-data-dir), removed on close.
  [browser, { link }] = await Promise.all([
    chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, timeout: 15_000 }),
    team('pro').then(async (t) => {
      const { data } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: destinationUrl, password: PASSWORD } });
      return { link: data };
    }),
  ]);
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (destination ? destination.close(resolve) : resolve(undefined)));
});

/** A fresh context (no cookies) whose requests come from `ip`: lockouts are per visitor. */
async function visitorPage(ip: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': ip } });
  context.setDefaultTimeout(10_000); // as every browser test: a wait, not a speed check
  return { context, page: await context.newPage() };
}

/** Types a password and submits the form; answers the POST's response. */
async function submit(page: Page, password: string): Promise<Response> {
  await page.getByLabel('Password').fill(password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.url() === link.shortUrl),
    page.getByRole('button', { name: 'Continue' }).click(),
  ]);
  await page.waitForLoadState();
  return response;
}

test('the form hides the destination; wrong → 401 with an error; right → cookie and the destination', { timeout: 40_000 }, async () => {
  const { context, page } = await visitorPage('198.51.100.7');
  try {
    const first = await page.goto(link.shortUrl);
    assert.equal(first?.status(), 200);
    assert.equal(page.url(), link.shortUrl);
    await assert.doesNotReject(page.getByRole('heading', { name: 'This link is protected' }).waitFor());
    const html = await page.content();
    assert.ok(!html.includes(destinationUrl) && !html.includes('/landing'), 'the form page must not hold the destination');
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'password-form.png'), fullPage: true });

    const wrong = await submit(page, 'not the password');
    assert.equal(wrong.status(), 401);
    assert.equal(await page.getByRole('alert').innerText(), 'Wrong password. Try again.');
    assert.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'password-wrong.png'), fullPage: true });

    const right = await submit(page, PASSWORD);
    assert.equal(right.status(), 302);
    await page.waitForURL(destinationUrl);
    assert.equal(await page.locator('h1').innerText(), 'arrived');

    const cookie = (await context.cookies(link.shortUrl)).find((c) => c.name === `hop_pw_${link.id}`);
    assert.ok(cookie, 'the unlock cookie is set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    const hoursLeft = (cookie.expires * 1000 - Date.now()) / 3_600_000;
    assert.ok(hoursLeft > 23.9 && hoursLeft <= 24.01, `expires in ${hoursLeft} h`);
    assert.equal(await page.evaluate(() => document.cookie.includes('hop_pw_')), false, 'not readable by scripts');

    // With the cookie, the short link goes straight through.
    const again = await page.goto(link.shortUrl);
    assert.equal(again?.status(), 200);
    assert.equal(page.url(), destinationUrl);
    assert.equal(again?.request().redirectedFrom()?.url(), link.shortUrl);
    assert.equal(await page.locator('input[name="password"]').count(), 0);
  } finally {
    await context.close();
  }
});

test('5 wrong passwords in a fresh context → the lockout page (429)', { timeout: 40_000 }, async () => {
  const { context, page } = await visitorPage('203.0.113.9');
  try {
    await page.goto(link.shortUrl);
    for (let i = 1; i <= 4; i++) assert.equal((await submit(page, `wrong ${i}`)).status(), 401, `attempt ${i}`);
    const locked = await submit(page, 'wrong 5');
    assert.equal(locked.status(), 429);
    assert.ok(Number(await locked.headerValue('retry-after')) > 0, 'Retry-After');
    assert.equal(await page.getByRole('heading').innerText(), 'Too many attempts');
    assert.equal(await page.locator('input[name="password"]').count(), 0);
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'password-locked.png'), fullPage: true });
    // Even the right password is refused while locked out.
    await page.goto(link.shortUrl);
    assert.equal((await submit(page, PASSWORD)).status(), 429);
  } finally {
    await context.close();
  }
});
