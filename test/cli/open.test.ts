// `hop open [links|link|webhook|billing|...]`: the dashboard address of each page, printed on stdout
// when no browser can be opened (stdin is a pipe here, never a terminal); the page it names is
// the one the dashboard serves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anonymous, API_URL, team, unique } from '../helpers/api.js';
import { hopSession } from './run-hop.js';

test('hop open prints the dashboard address of links, a link (by id or slug), webhooks and billing', async () => {
  const t = await team();
  const slug = unique('open-');
  const { data: link } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/o', slug } });
  const hop = hopSession();
  await hop.login(t.token);
  assert.equal((await hop.run(['workspaces', 'use', t.slug])).code, 0);
  const app = `${API_URL}/app/${t.slug}`;
  const cases: [string[], string][] = [
    [['open'], `${app}/links`],
    [['open', 'link', link.id], `${app}/links/${link.id}`],
    [['open', 'link', slug], `${app}/links/${link.id}`],
    [['open', 'webhook'], `${app}/webhooks`],
    [['open', 'webhook', 'wh_0123456789abcdefABCD'], `${app}/webhooks/wh_0123456789abcdefABCD`],
    [['open', 'billing'], `${app}/settings/billing`],
  ];
  for (const [args, url] of cases) {
    const res = await hop.run(args);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `${url}\n`, args.join(' '));
    const page = await anonymous.raw('GET', new URL(url).pathname);
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
  }
  assert.deepEqual(await hop.json(['open', 'billing']), { url: `${app}/settings/billing`, opened: false });
  // HOP_DASHBOARD_URL names a dashboard elsewhere.
  const elsewhere = await hop.run(['open', 'billing'], { env: { HOP_DASHBOARD_URL: 'https://dash.example.test/' } });
  assert.equal(elsewhere.stdout, `https://dash.example.test/${t.slug}/settings/billing\n`);
  const missing = await hop.run(['open', 'link', 'no-such-slug']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no link with slug/);
});
