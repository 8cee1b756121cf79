// The dashboard follows the server's sign-up setting (GET /v1/server), in headless Chromium against
// an invite-only, self-hosted server: sign-in says sign-up needs an invite, the sign-up page asks
// for the invite link, and the invite's own link signs a person up straight into its workspace,
// whose billing page shows no plan to upgrade and no quota.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { client, randomAddress, unique } from '../helpers/api.js';
import { assertPageBasics, launchBrowser, newPage } from '../helpers/dashboard-browser.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';

let browser: Browser;
let server: Awaited<ReturnType<typeof startServer>>;

before(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    // Its own embedded database, so the owner below is its first account.
    startServer({ dataDir: scratchDir('hop-browser-invite-'), env: { HOP_SIGNUP: 'invite', HOP_PLANS: '', DATABASE_URL: '', HOP_TRUST_PROXY: '127.0.0.1' } }),
  ]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('invite-only: the sign-up page asks for the invite, and the invite link signs up into the workspace', async () => {
  const res = await client({}, server.url).raw('POST', '/v1/auth/signup', {
    body: { email: `${unique('owner')}@example.test`, password: 'correct horse battery', name: 'Owner' },
    headers: { 'x-forwarded-for': randomAddress() },
  });
  assert.equal(res.status, 201, res.text);
  const owner = client({ token: (res.body as { data: { token: string } }).data.token }, server.url);
  const { data: ws } = await owner.call('createWorkspace', { body: { name: 'Invited team', slug: unique('team-') } });
  const email = `${unique('person')}@example.test`;
  const { data: invite } = await owner.call('createInvite', { params: { workspaceId: ws.id }, body: { email, role: 'owner' } });
  assert.ok(invite.acceptUrl.startsWith(`http://localhost:${server.port}/app/invites/`));
  const app = `${server.url}/app`;

  const { context, page, offsite } = await newPage(browser, 1280, server.url);
  try {
    await page.goto(`${app}/login`);
    await page.getByText('Create an account with your invite').waitFor();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your Hop account' }).waitFor();
    await page.getByLabel('Invite link').waitFor();
    await assertPageBasics(page, '/signup (invite only)');
    // Without the invite, the server's refusal is shown as it gives it.
    await page.getByLabel('Name').fill('Person');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('alert').filter({ hasText: /takes sign-ups by invite only/ }).waitFor();

    // The invite's own link: sign up from there, and land in the workspace without accepting again.
    await page.goto(invite.acceptUrl.replace(`http://localhost:${server.port}`, server.url));
    await page.getByRole('heading', { name: 'Join a workspace' }).waitFor();
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByText('You are signing up with an invite').waitFor();
    assert.equal(await page.getByLabel('Invite link').count(), 0, 'the link carried the invite');
    await page.getByLabel('Name').fill('Person');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText(`${ws.slug} · owner · self-hosted`).waitFor();

    // A self-hosted workspace: no quota, nothing to upgrade to.
    await page.goto(`${app}/${ws.slug}/settings/billing`);
    await page.getByTestId('plan').filter({ hasText: 'self-hosted' }).waitFor();
    await page.getByText(/every workspace has every feature/).waitFor();
    assert.equal(await page.getByRole('heading', { name: /^The .* plan$/ }).count(), 0, 'no next plan');
    await assertPageBasics(page, '/{ws}/settings/billing (self-hosted)');
    assert.deepEqual(offsite, []);
  } finally {
    await context.close();
  }
  const login = await client({}, server.url).raw('POST', '/v1/auth/login', { body: { email, password: 'correct horse battery' }, headers: { 'x-forwarded-for': randomAddress() } });
  const token = (login.body as { data: { token: string } }).data.token;
  assert.deepEqual((await client({ token }, server.url).call('listWorkspaces', {})).data.map((w) => [w.id, w.role, w.plan]), [[ws.id, 'owner', 'self-hosted']]);
});
