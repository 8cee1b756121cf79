// Smart links from the terminal: create/update flags, resolve (--json), export → apply round trip
// of the new fields (no changes planned), and `links check` failing a CI job on a broken link
// (its destinations on a loopback receiver, on a server allowed to reach it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Link, LinkResolution } from '@hop/shared';
import { team, unique } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { hopSession, loggedInTeam } from './run-hop.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let hop: ReturnType<typeof hopSession>;
before(async () => {
  ({ hop } = await loggedInTeam());
});

test('links create and update take --rule, --variant, --ios, --android and --preview-*; --clear-* removes them', async () => {
  const slug = unique('smart-');
  const link = await hop.json<Link>([
    'links', 'create', 'https://example.com/home', '--slug', slug,
    '--rule', 'country=DE,AT device=mobile -> https://example.com/de',
    '--rule', 'language=fr -> https://example.com/fr',
    '--variant', 'https://example.com/a', '50', '--variant', 'https://example.com/b', '50',
    '--ios', 'https://apps.example.com/app/id1', '--android', 'market://details?id=com.example',
    '--preview-title', 'Launch', '--preview-image', 'https://cdn.example.com/card.png',
  ]);
  assert.deepEqual(link.rules, [
    { when: { country: ['DE', 'AT'], device: 'mobile' }, url: 'https://example.com/de' },
    { when: { language: 'fr' }, url: 'https://example.com/fr' },
  ]);
  assert.deepEqual(link.variants, [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }]);
  assert.equal(link.ios, 'https://apps.example.com/app/id1');
  assert.equal(link.android, 'market://details?id=com.example');
  assert.deepEqual(link.preview, { title: 'Launch', image: 'https://cdn.example.com/card.png' });

  const updated = await hop.json<Link>(['links', 'update', link.id, '--clear-variants', '--clear-ios', '--rule', 'os=Android -> https://example.com/droid']);
  assert.equal(updated.variants, null);
  assert.equal(updated.ios, null);
  assert.deepEqual(updated.rules, [{ when: { os: 'Android' }, url: 'https://example.com/droid' }]);
  assert.equal(updated.android, 'market://details?id=com.example');

  const bad = await hop.run(['links', 'update', link.id, '--rule', 'planet=mars -> https://example.com']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown condition "planet"/);
  const badWeights = await hop.run(['links', 'update', link.id, '--variant', 'https://example.com/a', '60', '--variant', 'https://example.com/b', '30']);
  assert.equal(badWeights.code, 1);
  assert.match(badWeights.stderr, /sum to 100/);
});

test('links resolve <slug|id> prints where a visitor goes; --json is {url, target, reason}', async () => {
  const slug = unique('res-');
  const link = await hop.json<Link>(['links', 'create', 'https://example.com/home', '--slug', slug,
    '--rule', 'country=DE -> https://example.com/de', '--ios', 'myapp://open']);
  const de = await hop.json<LinkResolution>(['links', 'resolve', slug, '--country', 'DE']);
  assert.deepEqual(Object.keys(de).sort(), ['reason', 'target', 'url']);
  assert.equal(de.url, 'https://example.com/de');
  assert.equal(de.target, 'rule:0');
  const ios = await hop.json<LinkResolution>(['links', 'resolve', link.id, '--country', 'DE', '--ua', IPHONE]);
  assert.equal(ios.target, 'ios');
  assert.equal(ios.url, 'myapp://open');
  const none = await hop.json<LinkResolution>(['links', 'resolve', slug]);
  assert.equal(none.target, 'default');
  const human = await hop.run(['links', 'resolve', slug, '--country', 'de']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /https:\/\/example\.com\/de/);
  assert.match(human.stdout, /rule:0/);
  const missing = await hop.run(['links', 'resolve', unique('nope-')]);
  assert.equal(missing.code, 2);
});

test('links export → apply: the smart fields round-trip and an unchanged export plans no change', async () => {
  // A workspace of its own: its export holds only this test's links.
  const { t: t2, hop: hop2 } = await loggedInTeam();
  const dir = scratchDir('hop-smart-apply-');
  const file = join(dir, 'links.yaml');
  const slug = unique('code-');
  writeFileSync(file, `links:
  - slug: ${slug}
    url: https://example.com/home
    rules:
      - when: { country: [DE, AT], language: de }
        url: https://example.com/de
    variants:
      - { url: https://example.com/a, weight: 50 }
      - { url: https://example.com/b, weight: 50 }
    ios: https://apps.example.com/app/id1
    preview: { title: Hello, description: "A <b>bold</b> card" }
`);
  const applied = await hop2.run(['links', 'apply', '-f', file]);
  assert.equal(applied.code, 0, applied.stderr);
  const again = await hop2.run(['links', 'apply', '-f', file, '--plan']);
  assert.match(again.stdout, /No changes/);
  const exported = await hop2.run(['links', 'export', '--format', 'json']);
  assert.equal(exported.code, 0, exported.stderr);
  const links = JSON.parse(exported.stdout) as Link[];
  assert.deepEqual(links[0].rules, [{ when: { country: ['DE', 'AT'], language: 'de' }, url: 'https://example.com/de' }]);
  assert.deepEqual(links[0].preview, { title: 'Hello', description: 'A <b>bold</b> card' });
  const exportFile = join(dir, 'export.json');
  writeFileSync(exportFile, exported.stdout);
  const plan = await hop2.run(['links', 'apply', '-f', exportFile, '--plan']);
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, /No changes/);
  // A change to the rules shows in the plan and applies.
  writeFileSync(file, `links:
  - slug: ${slug}
    url: https://example.com/home
    rules:
      - when: { country: CH }
        url: https://example.com/ch
`);
  const plan2 = await hop2.run(['links', 'apply', '-f', file, '--plan']);
  assert.match(plan2.stdout, /rules:/);
  assert.match(plan2.stdout, /variants:/);
  assert.equal((await hop2.run(['links', 'apply', '-f', file])).code, 0);
  const [after] = (await t2.api.call('listLinks', { params: { workspaceId: t2.workspaceId }, query: {} })).data;
  assert.deepEqual(after.rules, [{ when: { country: 'CH' }, url: 'https://example.com/ch' }]);
  assert.equal(after.variants, null);
  assert.equal(after.ios, null);
});

let receiver: Server;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
after(async () => {
  if (server) assert.equal(await server.stop(), 0);
  receiver?.close();
});

test('links check [--tag] [--fail-on broken] exits 1 naming the broken link (a loopback receiver)', async () => {
  receiver = createServer((req, res) => res.writeHead(req.url === '/gone' ? 404 : 200).end());
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  server = await startServer({ dataDir: scratchDir('hop-check-'), env: { HOP_ALLOW_PRIVATE_URLS: '1' } });
  const owner = await team('free', server.url);
  const h = hopSession();
  // Logged in against this test's own server (on the embedded database it holds its own accounts).
  const login = await h.run(['login', '--with-token'], { input: owner.token, env: { HOP_API_URL: server.url } });
  assert.equal(login.code, 0, login.stderr);
  const env = { env: { HOP_WORKSPACE: owner.workspaceId, HOP_API_URL: server.url } };
  const create = (url: string, tag: string) => owner.api.call('createLink', { params: { workspaceId: owner.workspaceId }, body: { url, tags: [tag] } });
  const good = (await create(`${base}/fine`, 'docs')).data;
  const bad = (await create(`${base}/gone`, 'blog')).data;

  const docs = await h.run(['links', 'check', '--tag', 'docs', '--fail-on', 'broken'], env);
  assert.equal(docs.code, 0, docs.stderr);
  assert.match(docs.stdout, /ok/);
  const all = await h.run(['links', 'check', '--fail-on', 'broken'], env);
  assert.equal(all.code, 1);
  assert.match(all.stderr, new RegExp(`${bad.shortUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*broken 404`));
  assert.doesNotMatch(all.stderr, new RegExp(good.shortUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
  const json = await h.run(['links', 'check', '--tag', 'docs', '--json'], env);
  assert.equal(json.code, 0);
  assert.equal((JSON.parse(json.stdout) as Link[])[0].health?.status, 'ok');
  const never = await h.run(['links', 'check', '--fail-on', 'never'], env);
  assert.equal(never.code, 0);
});
