// docs/cli.md "In CI": the plain-shell recipe, extracted from the page and run as written with
// only HOP_API_KEY (a key of links scopes alone): the server address and the key are the only
// values put in, and `hop` is found on PATH as a user's install would be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_URL, apiKey, team } from '../helpers/api.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the plain-shell CI recipe of docs/cli.md works with HOP_API_KEY alone', async () => {
  const doc = readFileSync(join(root, 'docs', 'cli.md'), 'utf8');
  const block = /A plain shell[^\n]*\n\n```sh\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(block, 'docs/cli.md has the plain-shell recipe');
  assert.match(block, /^export HOP_API_URL=https:\/\/hop\.example\.com$/m);
  assert.match(block, /^export HOP_API_KEY=hop_live_\.\.\. /m);
  const t = await team();
  const key = await apiKey(t, ['links:read', 'links:write']);
  const script = block.replace('https://hop.example.com', API_URL).replace('hop_live_...', key.key);
  const dir = mkdtempSync(join(tmpdir(), 'hop-ci-'));
  try {
    symlinkSync(join(root, 'bin', 'hop'), join(dir, 'hop'));
    const env: Record<string, string | undefined> = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PATH: `${dir}:${process.env.PATH}` };
    for (const name of Object.keys(env)) if (name.startsWith('HOP_') || name === 'CI') delete env[name];
    const res = spawnSync('bash', ['-c', script], { cwd: dir, env: env as NodeJS.ProcessEnv, encoding: 'utf8' });
    assert.equal(res.status, 0, res.stderr);
    const [slug, url] = res.stdout.trim().split('\n');
    assert.equal(slug, t.slug, 'whoami names the key\'s workspace');
    assert.match(url!, /^http:\/\/localhost:\d+\/[A-Za-z0-9_-]+$/, 'the short link');
    const links = await key.api.call('listLinks', { params: { workspaceId: t.workspaceId }, query: {} });
    assert.deepEqual(links.data.map((l) => [l.url, l.tags]), [['https://example.com/report', ['nightly']]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
