// Headless Chromium for the dashboard's browser tests: the same no-network flags as the OAuth
// tests, axe-core injected into the page, and the checks every page must pass (a <main>, no
// serious or critical axe violation, no sideways scroll at 360 px).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { API_URL } from './api.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];

export const DASHBOARD_URL = `${API_URL}/app`;

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium to run the browser tests`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, timeout: 15_000 });
}

/** A fresh context (its own storage, so its own session) at desktop or phone width. */
export async function newPage(browser: Browser, width = 1280, origin = API_URL): Promise<{ context: BrowserContext; page: Page; offsite: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  // A request anywhere but the server under test is refused and recorded: tests assert none.
  const offsite: string[] = [];
  await context.route((url) => url.origin !== new URL(origin).origin, (route) => {
    offsite.push(route.request().url());
    return route.abort();
  });
  return { context, page, offsite };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

/** axe-core on the page as it stands: no serious or critical violation. */
export async function assertAccessible(page: Page, where: string) {
  // Evaluated through the DevTools protocol, not as an inline script, which the page's CSP refuses.
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`), [], `axe on ${where}`);
}

/** Once rendered, the page has one <main> and, at the current width, does not scroll sideways. */
export async function assertPageBasics(page: Page, where: string) {
  // The first render is a React transition that may commit after the load event: wait for it.
  await page.locator('main').first().waitFor({ state: 'attached' });
  assert.equal(await page.locator('main').count(), 1, `${where} has one <main>`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${where} scrolls sideways by ${overflow}px`);
  await assertAccessible(page, where);
}

/** Signs in through the form and waits for the workspace picker (or `next`). */
export async function signInUi(page: Page, email: string, password: string, path = '/login', dashboard = DASHBOARD_URL) {
  await page.goto(`${dashboard}${path}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A fresh page signed in through the form, landing on `path` (of the dashboard at `origin`). */
export async function signedIn(browser: Browser, email: string, password: string, path: string, opts: { width?: number; origin?: string } = {}): Promise<{ page: Page; offsite: string[] }> {
  const origin = opts.origin ?? API_URL;
  const { page, offsite } = await newPage(browser, opts.width ?? 1280, origin);
  await signInUi(page, email, password, `/login?next=${encodeURIComponent(path)}`, `${origin}${new URL(DASHBOARD_URL).pathname}`);
  return { page, offsite };
}
