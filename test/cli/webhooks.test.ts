// `hop webhooks ...` against a real server (its own, allowing loopback URLs, retries scaled down)
// and a real local receiver: --json output is the API's data, piped output is what scripts need,
// failures exit with the documented codes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WEBHOOK_HEADERS, type Delivery, type Webhook } from '@hop/shared';
import { signWebhook, verifyWebhook } from '@hop/shared/webhook-signature';
import { ADMIN_TOKEN, eventually, team, type Team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { hopSession, type HopOptions } from './run-hop.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

let server: Awaited<ReturnType<typeof startServer>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let t: Team;
let session: ReturnType<typeof hopSession>;

before(async () => {
  server = await startServer({
    dataDir: scratchDir('hop-cli-webhooks-'),
    env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_WEBHOOK_RETRY_SCALE: '0.01', HOP_ADMIN_TOKEN: ADMIN_TOKEN },
  });
  receiver = await startReceiver();
  t = await team('pro', server.url);
  session = hopSession();
});
after(async () => {
  await receiver.close();
  assert.equal(await server.stop(), 0);
});

/** `hop` on this file's server, as the team's owner in its workspace. */
const withEnv = (opts: HopOptions = {}): HopOptions => ({
  ...opts,
  env: { HOP_API_URL: server.url, HOP_API_KEY: t.token, HOP_WORKSPACE: t.workspaceId, ...opts.env },
});
const hop = (args: string[], opts?: HopOptions) => session.run(args, withEnv(opts));
const hopJson = <T>(args: string[], opts?: HopOptions) => session.json<T>(args, withEnv(opts));

const params = () => ({ workspaceId: t.workspaceId });
const apiWebhook = async (id: string) => (await t.api.call('getWebhook', { params: { ...params(), webhookId: id } })).data;
const receivedSince = (n: number) => receiver.received.slice(n);
/** The requests to `path` since `from`, once there are `count` of them (other hooks share the receiver). */
const waitForRequests = (from: number, count: number, what: string, path?: string) =>
  eventually(async () => {
    const rs = receivedSince(from).filter((r) => !path || r.path === path);
    return rs.length >= count ? rs : undefined;
  }, 10_000, what);

async function createHook(events = ['link.created'], path = '/hooks'): Promise<{ id: string; secret: string }> {
  const res = await hop(['webhooks', 'create', '--url', `${receiver.url}${path}`, ...events.flatMap((e) => ['--event', e])]);
  assert.equal(res.code, 0, res.stderr);
  const { data } = await t.api.call('listWebhooks', { params: params() });
  return { id: data.find((w) => w.url === `${receiver.url}${path}`)!.id, secret: res.stdout.trim() };
}

test('create: piped, stdout is only the secret; --json is the API data with the secret; list and get match the API', async () => {
  const piped = await hop(['webhooks', 'create', '--url', `${receiver.url}/piped`, '--event', 'link.created', '--event', 'link.updated', '--description', 'CI hook']);
  assert.equal(piped.code, 0, piped.stderr);
  assert.match(piped.stdout, /^whsec_[A-Za-z0-9+/]{43}=\n$/);
  assert.match(piped.stderr, /Created wh_\w+\. Keep the secret/);

  const created = await hopJson<Webhook & { secret: string }>(['webhooks', 'create', '--url', `${receiver.url}/json`, '-e', 'link.deleted']);
  assert.match(created.secret, /^whsec_/);
  const { secret, ...withoutSecret } = created;
  assert.deepEqual(withoutSecret, await apiWebhook(created.id));
  assert.ok(secret);

  const { data: listed } = await t.api.call('listWebhooks', { params: params() });
  assert.deepEqual(await hopJson<Webhook[]>(['webhooks', 'list']), listed);
  const pipedHook = listed.find((w) => w.url.endsWith('/piped'))!;
  assert.deepEqual(pipedHook.events, ['link.created', 'link.updated']);
  assert.equal(pipedHook.description, 'CI hook');
  assert.deepEqual(await hopJson<Webhook>(['webhooks', 'get', pipedHook.id]), await apiWebhook(pipedHook.id));

  // Piped tables are tab-separated rows; a record is key<TAB>value lines, never with a secret.
  const rows = (await hop(['webhooks', 'list'])).stdout.trim().split('\n').map((l) => l.split('\t'));
  assert.ok(rows.some((r) => r[0] === pipedHook.id && r[1] === pipedHook.url && r[2] === 'link.created,link.updated' && r[3] === 'yes'));
  const record = (await hop(['webhooks', 'get', pipedHook.id])).stdout;
  assert.ok(record.split('\n').includes(`url\t${pipedHook.url}`));
  assert.doesNotMatch(record, /whsec_/);
});

test('create refuses a missing --event (2), an unknown event (2), and a free workspace (1, TIER_REQUIRED)', async () => {
  const noEvent = await hop(['webhooks', 'create', '--url', `${receiver.url}/x`]);
  assert.equal(noEvent.code, 2);
  assert.match(noEvent.stderr, /Missing required flag event/);
  const unknown = await hop(['webhooks', 'create', '--url', `${receiver.url}/x`, '--event', 'link.exploded']);
  assert.equal(unknown.code, 2);
  const free = await team('free', server.url);
  const res = await hop(['webhooks', 'create', '--url', `${receiver.url}/x`, '--event', 'link.created'], {
    env: { HOP_API_KEY: free.token, HOP_WORKSPACE: free.workspaceId },
  });
  assert.equal(res.code, 1);
  assert.match(res.stderr, /^Error: .*\(TIER_REQUIRED\)\n$/);
  const badKey = await hop(['webhooks', 'list'], { env: { HOP_API_KEY: 'hop_live_notarealkeynotarealkey000000' } });
  assert.equal(badKey.code, 4);
});

test('update: --event replaces the events, --no-active / --active, --clear-description; nothing to change is exit 2', async () => {
  const hook = await createHook(['link.created'], '/update');
  const paused = await hopJson<Webhook>(['webhooks', 'update', hook.id, '--no-active', '--event', 'link.deleted', '--event', 'link.expired', '--description', 'paused']);
  assert.equal(paused.isActive, false);
  assert.deepEqual(paused.events, ['link.deleted', 'link.expired']);
  assert.equal(paused.description, 'paused');
  assert.deepEqual(paused, await apiWebhook(hook.id));
  const resumed = await hopJson<Webhook>(['webhooks', 'update', hook.id, '--active', '--clear-description', '--url', `${receiver.url}/moved`]);
  assert.equal(resumed.isActive, true);
  assert.equal(resumed.description, null);
  assert.equal(resumed.url, `${receiver.url}/moved`);
  const nothing = await hop(['webhooks', 'update', hook.id]);
  assert.equal(nothing.code, 2);
  assert.match(nothing.stderr, /nothing to change/);
  const enabled = await hopJson<Webhook>(['webhooks', 'enable', hook.id]);
  assert.deepEqual(enabled, await apiWebhook(hook.id));
  assert.equal(enabled.consecutiveFailures, 0);
});

test('test: a signed sample reaches the receiver; a failing endpoint exits 1 with the answer', async () => {
  const hook = await createHook(['link.created'], '/test');
  const from = receiver.received.length;
  const result = await hopJson<{ success: boolean; statusCode: number; eventId: string; durationMs: number; error: null }>(
    ['webhooks', 'test', hook.id, '--type', 'link.clicked']);
  assert.equal(result.success, true);
  assert.equal(result.statusCode, 200);
  const [r] = await waitForRequests(from, 1, 'the test delivery', '/test');
  assert.equal(r.headers[WEBHOOK_HEADERS.eventType], 'link.clicked');
  assert.deepEqual(verifyWebhook(hook.secret, r.headers, r.body), { ok: true });
  const body = JSON.parse(r.body);
  assert.equal(body.test, true);
  assert.equal(body.id, result.eventId);

  receiver.setResponder((req) => (req.path === '/test' ? 503 : 200));
  try {
    const failed = await hop(['webhooks', 'test', hook.id, '--json']);
    assert.equal(failed.code, 1);
    const data = JSON.parse(failed.stdout);
    assert.equal(data.success, false);
    assert.equal(data.statusCode, 503);
    const human = await hop(['webhooks', 'test', hook.id]);
    assert.equal(human.code, 1);
    assert.match(human.stderr, /^Error: the endpoint answered 503/m);
    assert.ok(human.stdout.split('\n').includes('statusCode\t503'));
  } finally {
    receiver.setResponder(() => 200);
  }
});

test('rotate-secret: the new secret signs; with --grace both do until then; a grace over a day is exit 2', async () => {
  const hook = await createHook(['link.created'], '/rotate');
  const rotated = await hop(['webhooks', 'rotate-secret', hook.id]);
  assert.equal(rotated.code, 0, rotated.stderr);
  const newSecret = rotated.stdout.trim();
  assert.match(newSecret, /^whsec_/);
  assert.notEqual(newSecret, hook.secret);
  assert.match(rotated.stderr, /old secret no longer signs/);
  let from = receiver.received.length;
  assert.equal((await hop(['webhooks', 'test', hook.id])).code, 0);
  let [r] = await waitForRequests(from, 1, 'a delivery after rotation', '/rotate');
  assert.deepEqual(verifyWebhook(newSecret, r.headers, r.body), { ok: true });
  assert.deepEqual(verifyWebhook(hook.secret, r.headers, r.body), { ok: false, reason: 'signature_mismatch' });

  const graced = await hopJson<{ secret: string; previousSecretExpiresAt: string }>(['webhooks', 'rotate-secret', hook.id, '--grace', '1h']);
  const inAnHour = Date.parse(graced.previousSecretExpiresAt) - Date.now();
  assert.ok(Math.abs(inAnHour - 3_600_000) < 60_000, graced.previousSecretExpiresAt);
  from = receiver.received.length;
  assert.equal((await hop(['webhooks', 'test', hook.id])).code, 0);
  [r] = await waitForRequests(from, 1, 'a delivery in the grace period', '/rotate');
  assert.equal(String(r.headers[WEBHOOK_HEADERS.signature]).split(' ').length, 2);
  assert.deepEqual(verifyWebhook(graced.secret, r.headers, r.body), { ok: true });
  assert.deepEqual(verifyWebhook(newSecret, r.headers, r.body), { ok: true });

  const seconds = await hopJson<{ previousSecretExpiresAt: string }>(['webhooks', 'rotate-secret', hook.id, '--grace', '90']);
  assert.ok(Math.abs(Date.parse(seconds.previousSecretExpiresAt) - Date.now() - 90_000) < 30_000);
  const tooLong = await hop(['webhooks', 'rotate-secret', hook.id, '--grace', '2d']);
  assert.equal(tooLong.code, 2);
  assert.match(tooLong.stderr, /at most a day/);
});

test('deliveries lists the log as the API does; retry sends the same delivery id again', async () => {
  const hook = await createHook(['link.created'], '/deliveries');
  const from = receiver.received.length;
  for (const n of [1, 2]) await t.api.call('createLink', { params: params(), body: { url: `https://example.com/d${n}` } });
  const got = await waitForRequests(from, 2, 'two deliveries', '/deliveries');
  assert.equal(got.length, 2);

  const log = await eventually(async () => {
    const ds = await hopJson<Delivery[]>(['webhooks', 'deliveries', hook.id]);
    return ds.length === 2 && ds.every((d) => d.status === 'succeeded') ? ds : undefined;
  }, 10_000, 'two succeeded deliveries');
  const { data: api } = await t.api.call('listDeliveries', { params: { ...params(), webhookId: hook.id } });
  assert.deepEqual(log, api);
  assert.equal(log[0].attempts[0].statusCode, 200);

  assert.deepEqual(await hopJson<Delivery[]>(['webhooks', 'deliveries', hook.id, '--status', 'failed']), []);
  const one = await hop(['webhooks', 'deliveries', hook.id, '--limit', '1', '--json']);
  assert.equal(one.code, 0, one.stderr);
  assert.equal(JSON.parse(one.stdout).length, 1);
  const cursor = /--cursor (\S+)/.exec(one.stderr)?.[1];
  assert.ok(cursor, one.stderr);
  const next = await hopJson<Delivery[]>(['webhooks', 'deliveries', hook.id, '--limit', '1', '--cursor', cursor]);
  assert.deepEqual(next.map((d) => d.id), [log[1].id]);
  const rows = (await hop(['webhooks', 'deliveries', hook.id])).stdout.trim().split('\n').map((l) => l.split('\t'));
  assert.deepEqual(rows.map((r) => r.slice(0, 4)), log.map((d) => [d.id, 'link.created', 'succeeded', '1']));

  const target = log[1];
  const before = receiver.received.length;
  const retried = await hopJson<Delivery>(['webhooks', 'retry', hook.id, target.id]);
  assert.equal(retried.id, target.id);
  assert.equal(retried.status, 'pending');
  const [again] = await waitForRequests(before, 1, 'the retried delivery', '/deliveries');
  assert.equal(again.headers[WEBHOOK_HEADERS.deliveryId], target.id);
  assert.deepEqual(verifyWebhook(hook.secret, again.headers, again.body), { ok: true });
  const unknown = await hop(['webhooks', 'retry', hook.id, 'dlv_0000000000000000nope']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /\(NOT_FOUND\)/);
});

test('delete: refused without --yes off a terminal (2); then gone (get exits 1, NOT_FOUND)', async () => {
  const hook = await createHook(['link.created'], '/delete');
  const refused = await hop(['webhooks', 'delete', hook.id]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--yes/);
  const piped = await hop(['webhooks', 'delete', hook.id, '--yes']);
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(piped.stdout, `${hook.id}\n`);
  const gone = await hop(['webhooks', 'get', hook.id]);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /\(NOT_FOUND\)/);
});

test('verify: the body on stdin; valid exits 0, each invalid case exits 1 and says why', async () => {
  const secret = 'whsec_verify-me';
  const body = '{"id":"evt_1","type":"link.created"}\n';
  // Timestamps are taken just before each run: a CLI run takes seconds on a loaded machine.
  const now = () => Math.floor(Date.now() / 1000);
  const verify = (ts: number, sig: string, input = body, extra: string[] = []) =>
    hop(['webhooks', 'verify', '--secret', secret, '--timestamp', String(ts), '--signature', sig, ...extra], { input });

  let at = now();
  const ok = await verify(at, signWebhook(secret, at, body));
  assert.deepEqual([ok.code, ok.stdout, ok.stderr], [0, 'valid\n', '']);
  at = now();
  const json = await verify(at, signWebhook(secret, at, body), body, ['--json']);
  assert.deepEqual(JSON.parse(json.stdout), { valid: true, reason: null });
  // Two signatures during a rotation: one matching is enough.
  at = now();
  assert.equal((await verify(at, `${signWebhook('whsec_old', at, body)} ${signWebhook(secret, at, body)}`)).code, 0);

  const cases: [(at: number) => [number, string, string], RegExp][] = [
    [(at) => [at, signWebhook('whsec_other', at, body), body], /signature mismatch: wrong secret, or the body was altered \(signature_mismatch\)/],
    [(at) => [at, signWebhook(secret, at, body), body.trim()], /signature mismatch/],
    [(at) => [at - 120, signWebhook(secret, at - 120, body), body], /stale timestamp: signed 1[2-9]\d s ago/],
    [(at) => [at + 60, signWebhook(secret, at + 60, body), body], /timestamp in the future/],
  ];
  for (const [sign, why] of cases) {
    const [ts, sig, input] = sign(now());
    const res = await verify(ts, sig, input);
    assert.equal(res.code, 1, res.stderr);
    assert.match(res.stderr, why);
    assert.equal(res.stdout, '');
  }
  at = now() - 120;
  const badJson = await verify(at, signWebhook(secret, at, body), body, ['--json']);
  assert.equal(badJson.code, 1);
  assert.deepEqual(JSON.parse(badJson.stdout), { valid: false, reason: 'stale_timestamp' });
  const bad = await hop(['webhooks', 'verify', '--secret', secret, '--timestamp', 'soon', '--signature', 'v1=00'], { input: body });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /bad timestamp/);
});
