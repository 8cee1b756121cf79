// Credentials that know their workspace: an API key (or a third-party token) selects its own
// workspace with no workspaces:read; HOP_WORKSPACE and --workspace take a slug or an id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiKey, team } from '../helpers/api.js';
import { hopSession, runHop } from './run-hop.js';

test('HOP_API_KEY alone (links scopes only) creates and lists links in the key\'s workspace', async () => {
  const t = await team();
  const key = await apiKey(t, ['links:read', 'links:write']);
  const env = { HOP_API_KEY: key.key };
  const created = await runHop(['links', 'create', 'https://example.com/ci', '--json'], { env });
  assert.equal(created.code, 0, created.stderr);
  const listed = await runHop(['links', 'list', '--json'], { env });
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(JSON.parse(listed.stdout).map((l: { url: string }) => l.url), ['https://example.com/ci']);
});

test('HOP_WORKSPACE and --workspace take the key\'s slug or id; another workspace is refused (exit 2)', async () => {
  const t = await team();
  const other = await team();
  const key = await apiKey(t, ['links:read']);
  for (const ws of [t.slug, t.workspaceId]) {
    const viaEnv = await runHop(['links', 'list', '--json'], { env: { HOP_API_KEY: key.key, HOP_WORKSPACE: ws } });
    assert.equal(viaEnv.code, 0, viaEnv.stderr);
    const viaFlag = await runHop(['links', 'list', '--workspace', ws, '--json'], { env: { HOP_API_KEY: key.key } });
    assert.equal(viaFlag.code, 0, viaFlag.stderr);
  }
  const refused = await runHop(['links', 'list'], { env: { HOP_API_KEY: key.key, HOP_WORKSPACE: other.slug } });
  assert.equal(refused.code, 2);
  assert.equal(refused.stdout, '');
  assert.match(refused.stderr, new RegExp(`^Error: this API key belongs to workspace ${t.slug} \\(${t.workspaceId}\\) and cannot act in "${other.slug}"`));
});

test('login --with-token <key> stores the key\'s workspace; whoami shows it; workspaces use <slug> needs no workspaces:read', async () => {
  const t = await team();
  const key = await apiKey(t, ['links:read', 'links:write']);
  const hop = hopSession();
  const login = await hop.run(['login', '--with-token', '--json'], { input: key.key });
  assert.equal(login.code, 0, login.stderr);
  assert.deepEqual(JSON.parse(login.stdout).workspace, { id: t.workspaceId, slug: t.slug, name: 'Test Workspace', bound: true });
  assert.equal(login.stderr, '', 'under --json, no messages');
  // (`Default workspace: ${t.slug} \\(${t.workspaceId}\\)`));
  const whoami = await hop.run(['whoami']);
  assert.equal(whoami.code, 0, whoami.stderr);
  assert.match(whoami.stdout, new RegExp(`workspace\\s+${t.slug} \\(${t.workspaceId}\\)`));
  const me = await hop.json<{ workspace: string; workspaceSlug: string }>(['whoami'], { env: { HOP_CONFIG_DIR: hop.configDir } });
  assert.equal(me.workspace, t.workspaceId);
  assert.equal(me.workspaceSlug, t.slug);
  const used = await hop.run(['workspaces', 'use', t.slug, '--json']);
  assert.equal(used.code, 0, used.stderr);
  assert.equal(JSON.parse(used.stdout).id, t.workspaceId);
  assert.equal((await hop.run(['links', 'create', 'https://example.com/stored'])).code, 0);
});

test('a key in HOP_API_KEY ignores the default workspace stored by another login', async () => {
  const a = await team();
  const b = await team();
  const keyB = await apiKey(b, ['links:read']);
  const hop = hopSession();
  await hop.login(a.token);
  const me = await hop.json<{ workspace: string; user: { id: string } }>(['whoami'], { env: { HOP_API_KEY: keyB.key } });
  assert.equal(me.workspace, b.workspaceId);
  assert.equal(me.user.id, b.userId);
  assert.equal((await hop.run(['links', 'list'], { env: { HOP_API_KEY: keyB.key } })).code, 0);
});

test('a session without a default workspace is told the next command (exit 2)', async () => {
  const a = await team();
  await a.api.call('createWorkspace', { body: { name: 'Second', slug: `${a.slug}-2` } });
  const hop = hopSession();
  await hop.login(a.token);
  const res = await hop.run(['links', 'list']);
  assert.equal(res.code, 2);
  assert.match(res.stderr, /^Error: no workspace selected: run `hop workspaces use <slug>`/);
});
