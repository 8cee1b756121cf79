// `hop login --device` (RFC 8628) end to end, chosen by itself over SSH; the CLI's own login acts
// in every workspace of the user (switching needs no new login).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { API_URL, team, unique } from '../helpers/api.js';
import { approveDevice } from '../helpers/oauth.js';
import { hopSession } from './run-hop.js';
import { spawnHop } from './tail-process.js';

const HOP_BIN = fileURLToPath(new URL('../../bin/hop', import.meta.url));

test('hop login --device prints the code and address, polls, and logs in; workspaces use switches with no new login', { timeout: 60_000 }, async () => {
  const t = await team();
  const second = await t.api.call('createWorkspace', { body: { name: 'Second', slug: unique('ws-') } });
  const hop = hopSession();
  const login = spawnHop(['login', '--device', '--json'], { HOP_CONFIG_DIR: hop.configDir, HOP_API_URL: API_URL });
  try {
    const [, uri, code] = await login.waitForStderr(/open (\S+) on any device and enter the code\s+([A-Z]{4}-[A-Z]{4})/, 20_000, 'the user code');
    assert.match(uri, /^http:\/\/(localhost|127\.0\.0\.1):\d+\/v1\/oauth\/device$/);
    const [, complete] = await login.waitForStderr(/\(or open (\S+)\)/, 1_000, 'the complete address');
    assert.equal(complete, `${uri}?user_code=${code}`);
    // The server names itself by HOP_BASE_URL (localhost); the test reaches it at API_URL.
    await approveDevice(t, `${API_URL}${new URL(complete).pathname}${new URL(complete).search}`, 'approve', t.workspaceId);
    assert.equal(await login.exitWithin(30_000), 0, login.stderr());
  } finally {
    await login.stop();
  }
  const result = JSON.parse(login.stdout());
  assert.equal(result.credentialKind, 'oauth');
  assert.equal(result.workspace.id, t.workspaceId);
  assert.equal(result.user.email, t.email);
  assert.equal((await hop.run(['links', 'create', 'https://example.com/one'])).code, 0);
  // Another workspace of the same user: chosen with `workspaces use`, no new login.
  const used = await hop.run(['workspaces', 'use', second.data.slug]);
  assert.equal(used.code, 0, used.stderr);
  const created = await hop.run(['links', 'create', 'https://example.com/two', '--json']);
  assert.equal(created.code, 0, created.stderr);
  const listed = await hop.json<{ url: string }[]>(['links', 'list']);
  assert.deepEqual(listed.map((l) => l.url), ['https://example.com/two']);
});

test('over SSH, `hop login` on a terminal uses the device flow by itself', { timeout: 30_000 }, () => {
  const hop = hopSession();
  // A pseudo-terminal (script), SSH_CONNECTION set; `timeout` ends the wait for approval.
  const res = spawnSync('script', ['-qec', `timeout --foreground 4 ${process.execPath} ${HOP_BIN} login`, '/dev/null'], {
    env: { ...process.env, HOP_CONFIG_DIR: hop.configDir, HOP_API_URL: API_URL, SSH_CONNECTION: '10.0.0.1 5000 10.0.0.2 22', CI: '' },
    encoding: 'utf8',
  });
  assert.match(res.stdout, /No browser can be used \(over SSH\): logging in with a one-time code instead/);
  assert.match(res.stdout, /enter the code\s+[A-Z]{4}-[A-Z]{4}/);
});

test('hop login --help lists --device', async () => {
  const res = await hopSession().run(['login', '--help']);
  assert.equal(res.code, 0);
  assert.match(res.stdout, /--device/);
});
