// Processes on one PostgreSQL must agree on HOP_SECRET, the rate-limit store, the short domain and
// HOP_PLANS: one that disagrees with the running ones refuses to start, naming the setting, rather
// than quietly breaking sessions, unlock cookies, webhook deliveries, limits, plans or links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../helpers/start-server.mjs';

const skip = !process.env.DATABASE_URL && 'PostgreSQL only: the embedded database belongs to one process';
const SECRET = 'fleet-agreement-secret-0123456789-abcdefghij';
// The run's other servers skip the check (test/run.mjs): only these take part.
const fleet = { HOP_FLEET_CHECK: 'on', HOP_SECRET: SECRET, HOP_SHORT_DOMAIN: 'agree.test', HOP_PLANS: 'off' };

test('a process that disagrees with the running fleet refuses to start, naming the setting', { skip, timeout: 180_000 }, async () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'hop-fleet-agree-'));
    dirs.push(d);
    return d;
  };
  const refusal = async (env: Record<string, string>) => {
    const err = await startServer({ dataDir: dir(), env: { ...fleet, ...env }, timeoutMs: 60_000 }).then(
      async (s) => {
        await s.stop();
        return new Error('the server started');
      },
      (e: Error) => e,
    );
    const line = /hop-server: (.*)/.exec(err.message)?.[1] ?? err.message;
    assert.match(line, /this process disagrees with the fleet/, err.message);
    return line;
  };
  const first = await startServer({ dataDir: dir(), env: fleet });
  let killed: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    // A process without HOP_SECRET generates its own: the case that broke sessions silently.
    assert.match(await refusal({ HOP_SECRET: '' }), /HOP_SECRET differs from 1 running process/);
    assert.match(await refusal({ REDIS_URL: 'redis://127.0.0.1:6379' }), /REDIS_URL differs .*theirs: the database \(no REDIS_URL\), this one's: Redis/);
    const both = await refusal({ HOP_SECRET: 'another-secret-0123456789-abcdefghijklmnop', HOP_SHORT_DOMAIN: 'elsewhere.test' });
    assert.match(both, /HOP_SECRET differs.*HOP_SHORT_DOMAIN differs .*theirs: agree\.test, this one's: elsewhere\.test/, 'every disagreement is named at once');
    assert.ok(!both.includes(SECRET) && !both.includes('another-secret'), 'the message shows no secret');
    assert.match(await refusal({ HOP_PLANS: 'on' }), /HOP_PLANS differs .*theirs: off, this one's: on/);

    // A process that agrees joins; the refused ones left nothing behind.
    const second = await startServer({ dataDir: dir(), env: fleet });
    assert.equal((await fetch(`${second.url}/readyz`)).status, 200);
    assert.match(await refusal({ HOP_SHORT_DOMAIN: 'elsewhere.test' }), /differs from 2 running processes/);
    assert.equal(await second.stop(), 0);

    // Only running processes count: once the fleet is gone, crashed or stopped, a new setting starts.
    killed = first;
    first.child.kill('SIGKILL');
    await first.exited;
    const renamed = await startServer({ dataDir: dir(), env: { ...fleet, HOP_SHORT_DOMAIN: 'renamed.test' } });
    assert.match(await refusal({}), /HOP_SHORT_DOMAIN differs .*theirs: renamed\.test/);
    assert.equal(await renamed.stop(), 0);
    const back = await startServer({ dataDir: dir(), env: fleet });
    assert.equal(await back.stop(), 0);
  } finally {
    if (!killed) await first.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});
