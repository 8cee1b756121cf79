// Processes on one PostgreSQL must agree on HOP_SECRET, the rate-limit store, the short domain and
// HOP_PLANS: one that disagrees with the running ones refuses to start, naming the setting, rather
// than quietly breaking sessions, unlock cookies, webhook deliveries, limits, plans or links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { eventually } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';

const skip = !process.env.DATABASE_URL && 'PostgreSQL only: the embedded database belongs to one process';
const SECRET = 'fleet-agreement-secret-0123456789-abcdefghij';
// The run's other servers skip the check (test/run.mjs): only these take part.
const fleet = { HOP_FLEET_CHECK: 'on', HOP_SECRET: SECRET, HOP_SHORT_DOMAIN: 'agree.test', HOP_PLANS: 'off' };

const tempDirs: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'hop-fleet-agree-'));
  tempDirs.push(d);
  return d;
};
test.after(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

/** The message of a server that must refuse to start with `env`. */
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

test('a process that disagrees with the running fleet refuses to start, naming the setting', { skip, timeout: 180_000 }, async () => {
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
  }
});

test('a process that loses its database session takes its lock and its row back, and still counts', { skip, timeout: 120_000 }, async () => {
  const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  // The rows whose process holds its member lock now, with the backend that holds it.
  const live = () => sql<{ member: number; pid: number }[]>`
    select p.member, l.pid from fleet_processes p join pg_locks l
      on l.locktype = 'advisory' and l.classid = 72410301 and l.objid = p.member::oid and l.objsubid = 2 and l.granted
        and l.database = (select oid from pg_database where datname = current_database())`;
  const server = await startServer({ dataDir: dir(), env: fleet });
  try {
    const [before, ...others] = await live();
    assert.ok(before && others.length === 0, 'one live process in the fleet');
    // The lock's session ends; the next process to join would remove the row as a gone process's.
    await sql`select pg_terminate_backend(${before.pid})`;
    await sql`delete from fleet_processes where member = ${before.member}`;
    const after = await eventually(async () => (await live()).find((r) => r.member === before.member), 30_000, 'the row and lock to come back');
    assert.notEqual(after.pid, before.pid, 'the lock is held on a new session');
    assert.match(await refusal({ HOP_SHORT_DOMAIN: 'elsewhere.test' }), /HOP_SHORT_DOMAIN differs from 1 running process/);
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
  } finally {
    await server.stop();
    await sql.end();
  }
});
