// The dashboard's forms speak shared's words (issue-messages.ts), before anything is sent and in
// the API's answers: "can't be empty" and "choose at least one", never "Too small: expected ...".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { team } from '../helpers/api.js';
import { launchBrowser, newPage, signInUi } from '../helpers/dashboard-browser.js';

let browser: Browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

test('an empty API key form says the name can\'t be empty and to choose at least one scope', { timeout: 60_000 }, async () => {
  const t = await team();
  const { page } = await newPage(browser, 1280);
  await signInUi(page, t.email, t.password, `/login?next=${encodeURIComponent(`/${t.slug}/settings/keys`)}`);
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByText("can't be empty").waitFor();
  await page.getByText('Scopes: choose at least one').waitFor();
  const text = await page.locator('main').innerText();
  assert.doesNotMatch(text, /Too (small|big)|expected (string|array)/);
  await page.context().close();
});
