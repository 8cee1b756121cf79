import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signup, team, unique } from '../helpers/api.js';
import { hopSession } from './run-hop.js';

interface Workspace {
  id: string;
  slug: string;
  name: string;
  role: string;
  plan: string;
}

test('workspaces create, list and use (by slug and by id)', async () => {
  const user = await signup();
  const hop = hopSession();
  await hop.login(user.token);
  const slugA = unique('cli-a-');
  const a = await hop.json<Workspace>(['workspaces', 'create', '--name', 'Alpha', '--slug', slugA]);
  assert.deepEqual({ slug: a.slug, name: a.name, role: a.role, plan: a.plan }, { slug: slugA, name: 'Alpha', role: 'owner', plan: 'free' });
  // Without --slug, one is made from the name.
  const b = await hop.json<Workspace>(['workspaces', 'create', '--name', `Beta ${unique('')}`]);
  assert.match(b.slug, /^beta-[0-9a-f]{10}$/);

  const listed = await hop.json<Workspace[]>(['workspaces', 'list']);
  assert.deepEqual(listed.map((w) => w.id).sort(), [a.id, b.id].sort());

  const used = await hop.json<Workspace>(['workspaces', 'use', slugA]);
  assert.equal(used.id, a.id);
  assert.equal((await hop.json<{ workspace: string }>(['whoami'])).workspace, a.id);
  // Piped, the list is tab-separated without a header; * marks the default.
  const plain = await hop.run(['workspaces', 'list']);
  const rows = plain.stdout.trim().split('\n').map((l) => l.split('\t'));
  assert.deepEqual(rows.find((r) => r[1] === a.id)?.slice(0, 3), ['*', a.id, slugA]);
  assert.equal(rows.find((r) => r[1] === b.id)?.[0], '');

  await hop.json(['workspaces', 'use', b.id]);
  assert.equal((await hop.json<{ workspace: string }>(['whoami'])).workspace, b.id);
});

test('workspaces create --use makes it the default; a taken slug fails with exit 1', async () => {
  const t = await team();
  const hop = hopSession();
  await hop.login(t.token);
  const created = await hop.json<Workspace>(['workspaces', 'create', '--name', 'Gamma', '--slug', unique('cli-g-'), '--use']);
  assert.equal((await hop.json<{ workspace: string }>(['whoami'])).workspace, created.id);
  const taken = await hop.run(['workspaces', 'create', '--name', 'Again', '--slug', t.slug]);
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /^Error: .*\(SLUG_ALREADY_EXISTS\)\n$/);
});

test('workspaces use with an unknown workspace exits 1; missing argument exits 2', async () => {
  const t = await team();
  const hop = hopSession();
  await hop.login(t.token);
  const unknown = await hop.run(['workspaces', 'use', 'no-such-workspace']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no workspace "no-such-workspace"/);
  assert.equal((await hop.run(['workspaces', 'use'])).code, 2);
  assert.equal((await hop.run(['workspaces', 'create'])).code, 2, '--name is required');
});
