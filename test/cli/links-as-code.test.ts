// Links as code and the CLI in pipelines: hop links apply (plan, apply, idempotency, prune),
// import/export round trips, exit 3 on partial success, and retries that wait out a rate limit
// (on a server started here with the real limits and 6-second windows) or fail at once (--no-retry).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Link } from '@hop/shared';
import { ADMIN_TOKEN, client, team, unique, type Team } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { hopSession } from './run-hop.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { spendWindow } from '../helpers/rate-limit-window.js';

const dir = scratchDir('hop-apply-');
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

async function linksOf(t: Team): Promise<Link[]> {
  const { data } = await t.api.call('listLinks', { params: { workspaceId: t.workspaceId }, query: { limit: 100 } });
  return data;
}

let t: Team;
let hop: ReturnType<typeof hopSession>;
before(async () => {
  t = await team('pro');
  hop = hopSession();
  await hop.login(t.token);
});
const inWs = (ws = t.workspaceId) => ({ env: { HOP_WORKSPACE: ws } });

test('links apply: plan, apply, nothing to do the second time, updates with field diffs, prune', async () => {
  const [a, b, c] = [unique('a-'), unique('b-'), unique('c-')];
  const stray = (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/stray', slug: unique('stray-') } })).data;
  const v1 = file('v1.yaml', `links:
  - slug: ${a}
    url: https://example.com/a
    title: Alpha
    tags: [Docs, launch]
  - slug: ${b}
    url: https://example.com/b
    maxClicks: 10
  - slug: ${c}
    url: https://example.com/c
    expiresAt: 2030-01-01T00:00:00Z
`);
  const plan = await hop.run(['links', 'apply', '-f', v1, '--plan'], inWs());
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, new RegExp(`\\+ .*/${a}\\n\\s+url: "https://example.com/a"\\n\\s+title: "Alpha"\\n\\s+tags: \\["docs","launch"\\]`));
  assert.match(plan.stdout, /Plan: 3 to create, 0 to update, 0 to delete\./);
  assert.deepEqual((await linksOf(t)).map((l) => l.slug), [stray.slug], '--plan changes nothing');

  const applied = await hop.run(['links', 'apply', '-f', v1, '--json'], inWs());
  assert.equal(applied.code, 0, applied.stderr);
  const lines = applied.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.action, l.slug, l.success]), [['create', a, true], ['create', b, true], ['create', c, true]]);
  const byslug = new Map((await linksOf(t)).map((l) => [l.slug, l]));
  assert.deepEqual(byslug.get(a)!.tags.sort(), ['docs', 'launch']);
  assert.equal(byslug.get(a)!.title, 'Alpha');
  assert.equal(byslug.get(b)!.maxClicks, 10);
  assert.equal(byslug.get(c)!.expiresAt, '2030-01-01T00:00:00.000Z');

  // Idempotent: the same file again changes nothing.
  const again = await hop.run(['links', 'apply', '-f', v1], inWs());
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /No changes/);
  const json = await hop.run(['links', 'apply', '-f', v1, '--json'], inWs());
  assert.equal(json.stdout.trim(), '', 'no line when nothing changes');

  // v2 (JSON): a's title changes and b loses its limit; c is gone from the file; d is new.
  const d = unique('d-');
  const v2 = file('v2.json', JSON.stringify([
    { slug: a, url: 'https://example.com/a', title: 'Alpha 2', tags: ['docs', 'launch'] },
    { slug: b, url: 'https://example.com/b2' },
    { slug: d, url: 'https://example.com/d' },
  ]));
  const plan2 = await hop.run(['links', 'apply', '-f', v2, '--plan'], inWs());
  assert.match(plan2.stdout, new RegExp(`~ .*/${a}\\n\\s+title: "Alpha" → "Alpha 2"`));
  assert.match(plan2.stdout, new RegExp(`~ .*/${b}\\n\\s+url: "https://example.com/b" → "https://example.com/b2"\\n\\s+maxClicks: 10 → null`));
  assert.match(plan2.stdout, new RegExp(`\\+ .*/${d}`));
  assert.doesNotMatch(plan2.stdout, /- /, 'without --prune nothing is deleted');
  assert.match(plan2.stdout, /Plan: 1 to create, 2 to update, 0 to delete\./);
  const prunePlan = await hop.run(['links', 'apply', '-f', v2, '--plan', '--prune'], inWs());
  assert.match(prunePlan.stdout, new RegExp(`- .*/${c}`));
  assert.match(prunePlan.stdout, new RegExp(`- .*/${stray.slug}`));
  assert.match(prunePlan.stdout, /Plan: 1 to create, 2 to update, 2 to delete\./);

  // Deleting needs --yes when nobody can be asked.
  const refused = await hop.run(['links', 'apply', '-f', v2, '--prune'], inWs());
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--yes/);
  assert.equal((await linksOf(t)).length, 4, 'nothing changed');

  const pruned = await hop.run(['links', 'apply', '-f', v2, '--prune', '--yes', '--json'], inWs());
  assert.equal(pruned.code, 0, pruned.stderr);
  const results = pruned.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(results.map((r) => r.action).sort(), ['create', 'delete', 'delete', 'update', 'update']);
  assert.ok(results.every((r) => r.success));
  const after2 = new Map((await linksOf(t)).map((l) => [l.slug, l]));
  assert.deepEqual([...after2.keys()].sort(), [a, b, d].sort());
  assert.equal(after2.get(a)!.title, 'Alpha 2');
  assert.equal(after2.get(b)!.maxClicks, null);
  assert.equal(after2.get(b)!.url, 'https://example.com/b2');
  const settled = await hop.run(['links', 'apply', '-f', v2, '--prune', '--plan'], inWs());
  assert.match(settled.stdout, /No changes/);
});

test('links apply exits 3 when some links fail and the others are applied', async () => {
  const other = await team('free');
  const taken = unique('taken-');
  await other.api.call('createLink', { params: { workspaceId: other.workspaceId }, body: { url: 'https://example.com/x', slug: taken } });
  const mine = unique('mine-');
  const f = file('partial.yaml', `- { slug: ${taken}, url: https://example.com/1 }\n- { slug: ${mine}, url: https://example.com/2 }\n`);
  const res = await hop.run(['links', 'apply', '-f', f, '--json'], inWs());
  assert.equal(res.code, 3, res.stderr);
  const lines = res.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.find((l) => l.slug === taken).success, false);
  assert.equal(lines.find((l) => l.slug === taken).error.code, 'SLUG_ALREADY_EXISTS');
  assert.equal(lines.find((l) => l.slug === mine).success, true);
  const bad = await hop.run(['links', 'apply', '-f', file('bad.yaml', '- { slug: x, url: not-a-url }\n')], inWs());
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /url/);
});

test('links import and export: a CSV round trip, export → apply shows no changes, exit 3 on partial import', async () => {
  const ws = await team('pro');
  await hop.login(ws.token);
  const s1 = unique('imp-');
  const s2 = unique('imp-');
  const csv = file('in.csv', `url,slug,title,tags,maxClicks\nhttps://example.com/one,${s1},"Hello, world","a,b",\nhttps://example.com/two,${s2},,,7\n`);
  const imported = await hop.run(['links', 'import', csv], inWs(ws.workspaceId));
  assert.equal(imported.code, 0, imported.stderr);
  assert.equal(imported.stdout.trim().split('\n').length, 2, 'one short URL per link');
  const exported = await hop.run(['links', 'export', '--format', 'csv'], inWs(ws.workspaceId));
  assert.equal(exported.code, 0, exported.stderr);
  const { parse } = await import('csv-parse/sync');
  const rows = parse(exported.stdout, { columns: true }) as Record<string, string>[];
  assert.deepEqual(rows.map((r) => [r.url, r.slug, r.title, r.tags, r.maxClicks]), [
    ['https://example.com/one', s1, 'Hello, world', 'a,b', ''],
    ['https://example.com/two', s2, '', '', '7'],
  ]);
  const asJson = await hop.run(['links', 'export', '--format', 'json'], inWs(ws.workspaceId));
  const jsonFile = file('export.json', asJson.stdout);
  assert.equal(JSON.parse(asJson.stdout).length, 2);
  const noChange = await hop.run(['links', 'apply', '-f', jsonFile, '--plan'], inWs(ws.workspaceId));
  assert.match(noChange.stdout, /No changes/, noChange.stdout);

  // Empty the workspace, then the exported CSV brings the same links back.
  const emptied = await hop.run(['links', 'apply', '-f', file('empty.json', '[]'), '--prune', '--yes'], inWs(ws.workspaceId));
  assert.equal(emptied.code, 0, emptied.stderr);
  assert.equal((await linksOf(ws)).length, 0);
  const back = await hop.run(['links', 'import', file('back.csv', exported.stdout), '--json'], inWs(ws.workspaceId));
  assert.equal(back.code, 0, back.stderr);
  const restored = new Map((await linksOf(ws)).map((l) => [l.slug, l]));
  assert.equal(restored.get(s1)!.title, 'Hello, world');
  assert.deepEqual(restored.get(s1)!.tags.sort(), ['a', 'b']);
  assert.equal(restored.get(s2)!.maxClicks, 7);

  // Importing it again: every slug is taken → exit 1; one new row among them → exit 3.
  const dup = await hop.run(['links', 'import', file('dup.csv', `url,slug\nhttps://example.com/n,${unique('n-')}\nhttps://example.com/one,${s1}\n`), '--json'], inWs(ws.workspaceId));
  assert.equal(dup.code, 3, dup.stderr);
  const dupLines = dup.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(dupLines.map((l) => [l.line, l.success]), [[2, true], [3, false]]);
  await hop.login(t.token);
});

test('a rate-limited run waits for the window and completes; --no-retry fails at once', async () => {
  // Real limits (20 a minute, as on free) with windows ten times shorter: a "minute" is 6 s.
  const server = await startServer({
    dataDir: scratchDir('hop-rl-cli-'),
    env: { HOP_RATE_LIMIT_SCALE: '1', HOP_RATE_LIMIT_WINDOW_SCALE: '0.1', HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_TRUST_PROXY: '127.0.0.1' },
  });
  try {
    // Signed up from an address of its own: 127.0.0.1's sign-ups are counted by every server of the run.
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    const signup = await client({}, server.url).raw('POST', '/v1/auth/signup', {
      body: { email: `${unique('rl')}@example.test`, password: 'correct horse battery', name: 'RL' }, headers: { 'x-forwarded-for': ip },
    });
    const token = (signup.body as { data: { token: string } }).data.token;
    const api = client({ token }, server.url);
    const { data: ws } = await api.call('createWorkspace', { body: { name: 'RL', slug: unique('rl-') } });
    // The free plan's 20 a minute, with an hour (100 a "6-minute hour" on free) that the windows
    // spent here cannot reach: an operator's limits for an enterprise workspace.
    const admin = await client({}, server.url).raw('PATCH', `/v1/admin/workspaces/${ws.id}`, {
      body: { plan: 'enterprise', rateLimit: { perHour: 10_000, perMinute: 20 } }, headers: { 'x-admin-token': ADMIN_TOKEN, 'x-forwarded-for': ip },
    });
    assert.equal(admin.status, 200, admin.text);
    const cli = hopSession();
    const env = { HOP_API_URL: server.url, HOP_WORKSPACE: ws.id };
    assert.equal((await cli.run(['login', '--with-token'], { input: token, env })).code, 0);
    const slugs = Array.from({ length: 25 }, (_, i) => `${unique('r')}${i}`);
    const v1 = file('rl1.json', JSON.stringify(slugs.map((slug) => ({ slug, url: `https://example.com/${slug}` }))));
    const created = await cli.run(['links', 'apply', '-f', v1], { env });
    assert.equal(created.code, 0, created.stderr);
    // 25 updates, one request each, against 20 a "minute", started in a spent window: the run
    // has to wait once at least. (Left to chance, a fast host could split it over two windows.)
    const v2 = file('rl2.json', JSON.stringify(slugs.map((slug) => ({ slug, url: `https://example.com/${slug}`, title: 'v2' }))));
    await spendWindow(api, `/v1/workspaces/${ws.id}`);
    const updated = await cli.run(['links', 'apply', '-f', v2, '--json'], { env });
    assert.equal(updated.code, 0, updated.stderr);
    // It waits for each window it needs, and no more: the spent one, then at most one for the
    // 5 updates past the next window's 20 (and one more should a window's 20 fall short).
    const waits = updated.stderr.match(/Rate limited: retrying in \d+ s/g) ?? [];
    assert.ok(waits.length >= 1 && waits.length <= 3, updated.stderr);
    assert.equal(updated.stdout.trim().split('\n').filter((l) => JSON.parse(l).success).length, 25);
    const { data: links } = await api.call('listLinks', { params: { workspaceId: ws.id }, query: { limit: 100 } }).catch(async () => {
      await new Promise((r) => setTimeout(r, 6500));
      return api.call('listLinks', { params: { workspaceId: ws.id }, query: { limit: 100 } });
    });
    assert.ok(links.every((l) => l.title === 'v2'));

    // Spend the window, then: --no-retry fails at once with the 429; the default waits and succeeds.
    await spendWindow(api, `/v1/workspaces/${ws.id}`);
    const failed = await cli.run(['links', 'list', '--no-retry'], { env });
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /RATE_LIMIT_EXCEEDED/);
    assert.doesNotMatch(failed.stderr, /retrying/, 'fails at once, with no wait');
    await spendWindow(api, `/v1/workspaces/${ws.id}`);
    const waited = await cli.run(['links', 'list', '--json'], { env });
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stderr, /Rate limited: retrying in/);
    assert.equal(JSON.parse(waited.stdout).length, 20);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

test('hop whoami shows the plan and what is left of the quota', async () => {
  const w = await team('free');
  const s = hopSession();
  await s.login(w.token);
  const res = await s.run(['whoami'], inWs(w.workspaceId));
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /plan\s+free/);
  assert.match(res.stdout, /requests\s+\d+\/20000 left this minute, \d+\/100000 this hour/);
  assert.match(res.stdout, /qrCodes\s+10\/10 left this hour/);
  const json = await s.json<{ usage: { plan: string; qr: { limit: number } } }>(['whoami'], inWs(w.workspaceId));
  assert.equal(json.usage.plan, 'free');
  assert.equal(json.usage.qr.limit, 10);
});

