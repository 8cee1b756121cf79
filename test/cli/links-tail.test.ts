// `hop links tail`: the live click stream, read by the CLI as a child process while a visitor opens
// the short link. Runs against the shared test server (the stream needs no plan).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link, VisitEvent } from '@hop/shared';
import { API_URL, BROWSER_UA, team, visit, type Team } from '../helpers/api.js';
import { hopSession } from './run-hop.js';
import { spawnHop, type TailProcess } from './tail-process.js';

let t: Team;
let env: Record<string, string>;
before(async () => {
  t = await team('free');
  env = { HOP_API_URL: API_URL, HOP_API_KEY: t.token, HOP_WORKSPACE: t.workspaceId, HOP_CONFIG_DIR: hopSession().configDir };
});

const READY_MS = 15_000;
const CLICK_MS = 15_000;
const newLink = async (url: string): Promise<Link> => (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url } })).data;

async function withTail(args: string[], fn: (tail: TailProcess) => Promise<void>) {
  const tail = spawnHop(['links', 'tail', ...args], env);
  try {
    await fn(tail);
  } finally {
    await tail.stop();
  }
}

type ClickEvent = VisitEvent;

test('--json: a ready line, then a browser visit with country, device, browser and referrer, and a bot visit flagged', async () => {
  const link = await newLink('https://example.com/tail-clicks');
  await withTail(['--json'], async (tail) => {
    const ready = await tail.waitForJson<{ type: string; events: string[] }>((l) => l.type === 'ready', READY_MS, 'the ready line');
    assert.deepEqual(ready.events, ['link.clicked', 'qr.scanned']);
    assert.equal((await visit(link.shortUrl, { ua: BROWSER_UA.iphoneSafari, ip: '81.2.69.142', referer: 'https://t.co/xyz' })).status, 302);
    const human = await tail.waitForJson<ClickEvent>((l) => l.type === 'link.clicked', CLICK_MS, 'the browser click');
    assert.equal(human.workspaceId, t.workspaceId);
    assert.match(human.id, /^evt_/);
    assert.equal(human.data.linkId, link.id);
    assert.equal(human.data.slug, link.slug);
    assert.equal(human.data.country, 'GB');
    assert.equal(human.data.device, 'mobile');
    assert.equal(human.data.browser, 'Safari');
    assert.equal(human.data.referrer, 't.co');
    assert.equal(human.data.isBot, false);
    // A non-browser agent counts as a bot: not in analytics, but still in the live stream.
    assert.equal((await visit(link.shortUrl, { ua: 'curl/8.5.0', ip: '8.8.8.8' })).status, 302);
    const bot = await tail.waitForJson<ClickEvent>((l) => l.type === 'link.clicked' && l.data.isBot, CLICK_MS, 'the bot click');
    assert.equal(bot.data.linkId, link.id);
  });
});

test('--link shows only that link; piped, one tab-separated line per click', async () => {
  const watched = await newLink('https://example.com/watched');
  const other = await newLink('https://example.com/other');
  await withTail(['--link', watched.id], async (tail) => {
    await tail.waitForStderr(/Watching visits of lnk_/, READY_MS, 'the start message');
    await visit(other.shortUrl, { ua: BROWSER_UA.desktopChrome, ip: '8.8.8.8' });
    await visit(watched.shortUrl, { ua: BROWSER_UA.desktopChrome, ip: '8.8.8.8', referer: 'https://www.google.com/search?q=hop' });
    const line = await tail.waitForLine((l) => l.includes(watched.slug), CLICK_MS, 'the watched click');
    const [clickedAt, type, slug, country, device, browser, referrer, isBot, linkId] = line.split('\t');
    assert.ok(!Number.isNaN(Date.parse(clickedAt)), clickedAt);
    assert.deepEqual([type, slug, country, device, browser, referrer, isBot, linkId], ['link.clicked', watched.slug, 'US', 'desktop', 'Chrome', 'google.com', 'false', watched.id]);
    // The other link's click came first, in the same stream: it was filtered out, not late.
    assert.equal(tail.lines().length, 1, tail.stdout());
  });
});
