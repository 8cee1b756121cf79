// `hop webhooks tail` end to end: a real server (its own, allowing loopback URLs), the CLI as a
// child process reading the live event stream, and a real local receiver it forwards to.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WEBHOOK_HEADERS } from '@hop/shared';
import { verifyWebhook } from '@hop/shared/webhook-signature';
import { ADMIN_TOKEN, eventually, team, type Team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { hopSession } from './run-hop.js';
import { spawnHop, type TailProcess } from './tail-process.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

const dataDir = scratchDir('hop-tail-');
const SERVER_ENV = {
  HOP_ALLOW_PRIVATE_URLS: '1', HOP_WEBHOOK_RETRY_SCALE: '0.01', HOP_ADMIN_TOKEN: ADMIN_TOKEN,
  // Fixed, so the stream secret (derived from it) and sessions survive the restart below: the run's
  // secret, which every server of the run shares. Another one would make this server a fleet member
  // that cannot read the other servers' webhook secrets: on PostgreSQL its dispatcher would claim
  // their deliveries and fail them ("HOP_SECRET differs"), as a misconfigured fleet would.
  HOP_SECRET: process.env.HOP_TEST_SECRET ?? 'tail-test-secret-tail-test-secret-0123456789',
};
let server: Awaited<ReturnType<typeof startServer>>;
let t: Team;
let env: Record<string, string>;

interface Line {
  type: string;
  [k: string]: unknown;
}
interface EventLine extends Line {
  seq: string;
  eventId: string;
  eventType: string;
  deliveryId: string;
  workspaceSlug: string;
  linkSlug: string | null;
  signature: 'valid' | 'invalid';
  reason: string | null;
  event: { id: string; type: string; data: Record<string, unknown> };
}
interface ForwardLine extends Line {
  eventId: string;
  deliveryId: string;
  url: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

before(async () => {
  server = await startServer({ dataDir, env: SERVER_ENV });
  // The event stream needs no plan: a free workspace can tail.
  t = await team('free', server.url);
  env = { HOP_API_URL: server.url, HOP_API_KEY: t.token, HOP_WORKSPACE: t.workspaceId, HOP_CONFIG_DIR: hopSession().configDir };
});
after(async () => {
  assert.equal(await server.stop(), 0);
});

const READY_MS = 15_000;
const EVENT_MS = 15_000;
const params = () => ({ workspaceId: t.workspaceId });

async function withTail(args: string[], fn: (tail: TailProcess) => Promise<void>, extraEnv: Record<string, string> = {}) {
  const tail = spawnHop(['webhooks', 'tail', ...args], { ...env, ...extraEnv });
  try {
    await fn(tail);
  } finally {
    await tail.stop();
  }
}

test('--json --forward-to: a ready line, each event verified ✓ and forwarded with headers that verify', async () => {
  const receiver = await startReceiver({ respond: (r) => (r.body.includes('"link.deleted"') ? 500 : 200) });
  try {
    await withTail(['--json', '--forward-to', `${receiver.url}/hooks`], async (tail) => {
      const ready = await tail.waitForJson<Line>((l) => l.type === 'ready', READY_MS, 'the ready line');
      assert.match(String(ready.secret), /^whsec_/);
      assert.equal(ready.workspaceId, t.workspaceId);
      assert.equal(ready.events, 'all');
      assert.equal(tail.lines()[0], JSON.stringify(ready), 'ready is the first line');

      const { data: link } = await t.api.call('createLink', { params: params(), body: { url: 'https://example.com/tail-1' } });
      await t.api.call('updateLink', { params: { ...params(), linkId: link.id }, body: { title: 'Tailed' } });
      await t.api.call('deleteLink', { params: { ...params(), linkId: link.id } });

      const forwards = await eventually(async () => {
        const fs = tail.json<ForwardLine>().filter((l) => l.type === 'forward');
        return fs.length >= 3 ? fs : undefined;
      }, EVENT_MS, 'three forward lines').catch((err) => assert.fail(`${err.message}\n${tail.stdout()}\n${tail.stderr()}`));
      const events = tail.json<EventLine>().filter((l) => l.type === 'event');
      assert.deepEqual(events.map((e) => e.eventType), ['link.created', 'link.updated', 'link.deleted']);
      for (const e of events) {
        assert.equal(e.signature, 'valid');
        assert.equal(e.reason, null);
        assert.match(e.deliveryId, /^dlv_/);
        assert.match(e.seq, /^\d+$/);
        assert.equal(e.event.id, e.eventId);
        assert.equal((e.event.data.link as { id: string }).id, link.id);
        assert.equal(e.linkSlug, link.slug);
        assert.equal(e.workspaceSlug, t.slug);
      }
      assert.deepEqual(events.find((e) => e.eventType === 'link.updated')!.event.data.changes, ['title']);

      // The local receiver got each raw body with the original, verifiable headers.
      assert.equal(receiver.received.length, 3);
      for (const [i, r] of receiver.received.entries()) {
        assert.equal(r.path, '/hooks');
        assert.deepEqual(verifyWebhook(String(ready.secret), r.headers, r.body), { ok: true });
        assert.equal(r.headers[WEBHOOK_HEADERS.eventType], events[i].eventType);
        assert.equal(r.headers[WEBHOOK_HEADERS.deliveryId], events[i].deliveryId);
        assert.equal(r.headers['content-type'], 'application/json');
        assert.deepEqual(JSON.parse(r.body), events[i].event);
      }
      // ... and its answers are reported, the 500 included.
      assert.deepEqual(forwards.map((f) => [f.eventId, f.statusCode, f.error]), [
        [events[0].eventId, 200, null], [events[1].eventId, 200, null], [events[2].eventId, 500, 'HTTP 500'],
      ]);
      for (const f of forwards) {
        assert.equal(f.url, `${receiver.url}/hooks`);
        assert.ok(Number.isInteger(f.durationMs) && f.durationMs >= 0);
      }
      assert.equal(tail.stderr(), '', 'nothing on stderr under --json');
      // The tail reported the local answers back: the workspace's log shows them.
      const logged = await eventually(async () => {
        const { data } = await t.api.call('listStreamResults', { params: params() });
        return data.length >= 3 ? data : undefined;
      }, EVENT_MS, 'three reported results');
      assert.deepEqual(logged.map((r) => [r.eventId, r.statusCode]).reverse(), forwards.map((f) => [f.eventId, f.statusCode]));
      assert.ok(logged.every((r) => r.forwardedTo === `${receiver.url}/hooks` && r.deliveryId.startsWith('dlv_')));
    });
  } finally {
    await receiver.close();
  }
});

test('on a terminal-less stdout: the secret on stderr, one line per event with ✓, the local status; --events filters', async () => {
  await withTail(['--events', 'link.updated,link.deleted', '--forward-to', 'http://127.0.0.1:9/closed'], async (tail) => {
    const [, secret] = await tail.waitForStderr(/Signing secret: (whsec_\S+)/, READY_MS, 'the secret on stderr');
    assert.match(tail.stderr(), /Listening for link\.updated, link\.deleted/);
    const { data: link } = await t.api.call('createLink', { params: params(), body: { url: 'https://example.com/tail-2' } });
    await t.api.call('updateLink', { params: { ...params(), linkId: link.id }, body: { title: 'Human' } });
    const line = await tail.waitForLine((l) => l.includes('link.updated'), EVENT_MS, 'the link.updated line');
    // The line names the workspace and the link by their slugs, not only by ids.
    assert.match(line, new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\S+Z {2}link\\.updated {2}${t.slug}/${link.slug} {2}dlv_\\w+ {2}✓$`));
    // Nothing could listen on port 9: the forward fails, and says so.
    const forward = await tail.waitForLine((l) => l.includes('→'), EVENT_MS, 'the forward line');
    assert.match(forward, /→ ✗ .*ECONNREFUSED.* in \d+ ms from http:\/\/127\.0\.0\.1:9\/closed/);
    assert.equal(tail.lines().some((l) => l.includes('link.created')), false, 'link.created was not asked for');
    assert.match(secret, /^whsec_/);
    assert.equal(await tail.stop(), 0, 'Ctrl-C or SIGTERM ends a tail cleanly');
  });
});

test('--print-secret prints only the secret, the same on every run with this credential', async () => {
  const first = spawnHop(['webhooks', 'tail', '--print-secret'], env);
  const second = spawnHop(['webhooks', 'tail', '--print-secret'], env);
  try {
    assert.equal(await first.exitWithin(15_000), 0, first.stderr());
    assert.equal(await second.exitWithin(15_000), 0, second.stderr());
    assert.match(first.stdout(), /^whsec_[A-Za-z0-9+/]{43}=\n$/);
    assert.equal(second.stdout(), first.stdout());
    // And it is the secret the stream signs with.
    await withTail(['--json'], async (tail) => {
      const ready = await tail.waitForJson<Line>((l) => l.type === 'ready', READY_MS, 'the ready line');
      assert.equal(`${ready.secret}\n`, first.stdout());
    });
  } finally {
    await Promise.all([first.stop(), second.stop()]);
  }
});

test('a tail that cannot connect exits non-zero: 1 for no server, 4 for a refused credential, 2 for a bad flag', async () => {
  const cases: [Record<string, string>, string[], number, RegExp][] = [
    [{ HOP_API_URL: 'http://127.0.0.1:9' }, [], 1, /cannot reach .*\(NETWORK_ERROR\)/],
    [{ HOP_API_KEY: 'hop_live_notarealkeynotarealkey000000' }, [], 4, /UNAUTHORIZED/],
    [{}, ['--events', 'link.exploded'], 2, /unknown event type "link\.exploded"/],
    [{}, ['--forward-to', 'localhost:4000'], 2, /--forward-to needs an http/],
  ];
  for (const [extra, args, code, stderr] of cases) {
    const tail = spawnHop(['webhooks', 'tail', ...args], { ...env, ...extra });
    try {
      assert.equal(await tail.exitWithin(15_000), code, tail.stderr());
      assert.match(tail.stderr(), stderr);
      assert.equal(tail.stdout(), '');
    } finally {
      await tail.stop();
    }
  }
});

test('a server restart: the tail reconnects, resumes after the last event it saw, and misses nothing', async () => {
  await withTail(['--json'], async (tail) => {
    await tail.waitForJson<Line>((l) => l.type === 'ready', READY_MS, 'the ready line');
    const { data: before } = await t.api.call('createLink', { params: params(), body: { url: 'https://example.com/before' } });
    await tail.waitForJson<EventLine>((l) => l.type === 'event' && l.event.data.link !== undefined && (l.event.data.link as { id: string }).id === before.id, EVENT_MS, 'the first event');

    assert.equal(await server.stop(), 0);
    await tail.waitForStderr(/Disconnected \(.*\); reconnecting in/, 10_000, 'the disconnection notice');
    server = await startServer({ dataDir, port: server.port, env: SERVER_ENV });
    // Made at once: the tail is likely still waiting to reconnect, so only the resume can bring it.
    const { data: afterRestart } = await t.api.call('createLink', { params: params(), body: { url: 'https://example.com/after' } });
    await tail.waitForStderr(/Reconnected, resuming after event \d+/, 40_000, 'the reconnection');
    const seen = await tail.waitForJson<EventLine>(
      (l) => l.type === 'event' && (l.event.data.link as { id: string } | undefined)?.id === afterRestart.id, EVENT_MS, 'the event made during the restart');
    assert.equal(seen.signature, 'valid');
    const events = tail.json<EventLine>().filter((l) => l.type === 'event');
    assert.equal(new Set(events.map((e) => e.eventId)).size, events.length, 'no event twice');
    assert.equal(tail.json().filter((l) => l.type === 'ready').length, 1, 'one ready line, even after reconnecting');
  });
});
