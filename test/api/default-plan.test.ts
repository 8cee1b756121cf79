// HOP_DEFAULT_PLAN (docs/api.md, Access): the plan of new workspaces, so a self-hosted server need not
// throttle its only team like a SaaS free tier; and a 429 says when the window resets and that
// the operator can raise the limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, client, setPlan, team, unique } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';

const root = new URL('../..', import.meta.url).pathname;

test('HOP_DEFAULT_PLAN=enterprise: new workspaces are enterprise and are not held to the free limits', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-plan-'));
  const server = await startServer({ dataDir, env: {
    HOP_DEFAULT_PLAN: 'enterprise', HOP_RATE_LIMIT_SCALE: '1', HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_TRUST_PROXY: '127.0.0.1',
  } });
  try {
    // Signed up from an address of its own: on PostgreSQL the run's servers share 127.0.0.1's counter.
    const ip = `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;
    const signup = await client({}, server.url).raw('POST', '/v1/auth/signup', {
      body: { email: `${unique('plan')}@example.test`, password: 'correct horse battery', name: 'Plan' }, headers: { 'x-forwarded-for': ip },
    });
    assert.equal(signup.status, 201, signup.text);
    const api = client({ token: (signup.body as { data: { token: string } }).data.token }, server.url);
    const { data: created } = await api.call('createWorkspace', { body: { name: 'Self-hosted', slug: unique('ws-') } });
    const t = { api, workspaceId: created.id };
    const { data: ws } = await t.api.call('getWorkspace', { params: { workspaceId: t.workspaceId } });
    assert.equal(ws.plan, 'enterprise');
    // 30 requests in a minute: a free workspace is refused after 20.
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await t.api.raw('GET', `/v1/workspaces/${t.workspaceId}`)).status);
    assert.deepEqual(statuses, Array(30).fill(200));

    // The operator moves it to free: the 429 says when the window resets and who can lift the limit.
    await setPlan(t.workspaceId, 'free', server.url);
    let refused;
    for (let i = 0; i < 25 && !refused; i++) {
      const res = await t.api.raw('GET', `/v1/workspaces/${t.workspaceId}`);
      if (res.status === 429) refused = res;
    }
    assert.ok(refused, 'the free plan refuses within 25 requests');
    const { error } = refused.body as { error: { message: string; details: { resetAt: string } } };
    assert.match(error.message, /resets at \d{4}-\d\d-\d\dT/);
    assert.ok(error.message.includes(error.details.resetAt));
    assert.match(error.message, /operator can raise/);
    assert.ok(Number(refused.headers['retry-after']) >= 1);
  } finally {
    assert.equal(await server.stop(), 0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('without HOP_DEFAULT_PLAN new workspaces are free', async () => {
  const t = await team();
  const { data: ws } = await client({ token: t.token }).call('getWorkspace', { params: { workspaceId: t.workspaceId } });
  assert.equal(ws.plan, 'free');
});

test('a wrong HOP_DEFAULT_PLAN stops the server at start, naming the variable', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-plan-bad-'));
  const res = spawnSync(process.execPath, ['bin/hop-server'], {
    cwd: root, env: { ...process.env, PORT: '0', HOP_DEFAULT_PLAN: 'unlimited', HOP_DATA_DIR: dataDir }, encoding: 'utf8', timeout: 30_000,
  });
  rmSync(dataDir, { recursive: true, force: true });
  assert.equal(res.status, 2);
  assert.match(res.stderr, /HOP_DEFAULT_PLAN/);
});
