// `hop api <method> <path>` like `gh api`: any endpoint with the CLI's credential and workspace,
// pretty JSON on a terminal, the raw body piped, and the exit codes of every other command.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unique, type Team } from '../helpers/api.js';
import { hopOnTerminal } from './pty.js';
import { hopSession, loggedInTeam, runHop } from './run-hop.js';
import type { Link } from '@hop/shared';

let t: Team;
let hop: ReturnType<typeof hopSession>;
before(async () => {
  ({ t, hop } = await loggedInTeam());
});

test('POST with --field fills {ws}, types values and builds lists; GET puts fields in the query; piped output is the raw body', async () => {
  const slug = unique('api-');
  const created = await hop.run(['api', 'POST', '/v1/workspaces/{ws}/links', '--field', 'url=https://example.com/api', '--field', `slug=${slug}`,
    '--field', 'tags[]=one', '--field', 'tags[]=two', '--field', 'maxClicks=5', '--raw-field', 'title=123']);
  assert.equal(created.code, 0, created.stderr);
  const body = JSON.parse(created.stdout) as { success: boolean; data: Link };
  assert.equal(body.success, true);
  assert.deepEqual([body.data.slug, body.data.tags, body.data.maxClicks, body.data.title], [slug, ['one', 'two'], 5, '123']);
  assert.ok(!created.stdout.includes('\n  '), 'piped: the body as sent, not re-indented');
  const { data: stored } = await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: body.data.id } });
  assert.equal(stored.slug, slug);

  const listed = await hop.run(['api', 'get', 'v1/workspaces/{ws}/links', '--field', 'limit=1']);
  assert.equal(listed.code, 0, listed.stderr);
  const page = JSON.parse(listed.stdout) as { data: Link[]; pagination: { limit: number } };
  assert.equal(page.pagination.limit, 1);
  assert.deepEqual(await hop.json(['api', 'GET', '/v1/workspaces/{ws}/links/' + body.data.id]), { success: true, data: stored });
});

test('--input sends a file as the body', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hop-api-'));
  try {
    const file = join(dir, 'link.json');
    writeFileSync(file, JSON.stringify({ title: 'From a file' }));
    const link = (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/input' } })).data;
    const res = await hop.run(['api', 'PATCH', `/v1/workspaces/{ws}/links/${link.id}`, '--input', file]);
    assert.equal(res.code, 0, res.stderr);
    assert.equal((JSON.parse(res.stdout) as { data: Link }).data.title, 'From a file');
    const piped = await hop.run(['api', 'PATCH', `/v1/workspaces/{ws}/links/${link.id}`, '--input', '-'], { input: '{"title":"From stdin"}' });
    assert.equal((JSON.parse(piped.stdout) as { data: Link }).data.title, 'From stdin');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('errors: the body on stdout, one line on stderr, exit 1; UNAUTHORIZED exits 4; a bad field is a usage error', async () => {
  const missing = await hop.run(['api', 'GET', '/v1/workspaces/{ws}/links/lnk_0000000000000000000000']);
  assert.equal(missing.code, 1);
  assert.equal((JSON.parse(missing.stdout) as { error: { code: string } }).error.code, 'NOT_FOUND');
  assert.match(missing.stderr, /^Error: .*\(NOT_FOUND\)\n$/);
  const invalid = await hop.run(['api', 'POST', '/v1/workspaces/{ws}/links', '--field', 'url=https://example.com', '--field', 'slug=']);
  assert.equal(invalid.code, 1);
  assert.equal(invalid.stderr, "Error: slug: can't be empty (VALIDATION_ERROR)\n", 'fields named as the API names them: hop api has no such flags');
  const unauthorized = await runHop(['api', 'GET', '/v1/me'], { env: { HOP_API_KEY: 'hop_live_notarealkeynotarealkey000000' } });
  assert.equal(unauthorized.code, 4);
  const usage = await hop.run(['api', 'POST', '/v1/me', '--field', 'novalue']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /"novalue" is not key=value/);
});

test('on a terminal the answer is indented JSON', () => {
  const res = hopOnTerminal(['api', 'GET', '/v1/me'], { env: { HOP_CONFIG_DIR: hop.configDir } });
  assert.equal(res.code, 0, res.output);
  assert.match(res.output, /^\{\n {2}"success": true,\n {2}"data": \{\n/);
});
