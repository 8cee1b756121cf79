// The server as operators get it: `npm run pack:server` packs the server, the dashboard's assets
// and the migrations into one tarball, which installs with `npm install -g` into a prefix of its
// own, for a user whose HOME is an empty directory, with the registry unreachable. The installed
// `hop-server` then starts with no setting but a port: embedded database, migrations, dashboard.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freePort } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { cleanEnv, installGlobal, pack } from '../../scripts/pack/install-tarball.mjs';

const scratch = scratchDir('hop-server-package-');
const home = join(scratch, 'home');
let bin = '';
let packageDir = '';
// What is tested is the package's start with no settings: on the embedded database whatever the
// run's database. The run on PostgreSQL would only repeat the three minutes of packing and
// installing, so it leaves this file to the embedded runs.
const skip = process.env.DATABASE_URL ? 'the package starts on its embedded database: tested by the embedded runs' : false;

before(() => {
  if (skip) return;
  ({ bin, packageDir } = installGlobal({ tarball: pack('server', scratch), prefix: join(scratch, 'prefix'), home, which: 'server' }));
});

test('the package is named hop-server and depends on nothing private to the workspace', { skip }, () => {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'hop-server');
  assert.deepEqual(pkg.bin, { 'hop-server': 'bin/hop-server' });
  for (const name of Object.keys(pkg.dependencies)) assert.ok(!name.startsWith('@hop/'), `${name} is private to the workspace`);
  assert.ok(!existsSync(join(packageDir, 'node_modules', '@hop')));
  assert.ok(existsSync(join(packageDir, 'web', 'dist', 'index.html')), 'the dashboard is built in');
});

test('a fresh install starts on the embedded database, serves the API and the dashboard, and stops on SIGTERM', { skip }, async () => {
  const port = await freePort();
  // The bin's first line runs `node` from PATH, as a user's shell would.
  const env = { ...cleanEnv(home), PATH: `${dirname(process.execPath)}:${process.env.PATH}`, PORT: String(port), HOP_LOG_FORMAT: 'json' };
  const child = spawn(bin, [], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const base = `http://127.0.0.1:${port}`;
    let ready: Response | undefined;
    for (let i = 0; i < 1800 && !ready?.ok; i++) {
      ready = await fetch(`${base}/readyz`).catch(() => undefined);
      if (!ready?.ok) await Promise.race([new Promise((r) => setTimeout(r, 100)), exited]);
      if (child.exitCode !== null) assert.fail(`hop-server exited ${child.exitCode}:\n${output}`);
    }
    assert.deepEqual(await ready!.json(), { status: 'ready', database: 'embedded' });
    assert.ok(existsSync(join(home, '.hop-data')), 'the embedded database is in ./.hop-data of the working directory');
    // The migrations ran: an account can be made.
    const signup = await fetch(`${base}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'operator@example.test', password: 'a long passphrase', name: 'Operator' }),
    });
    assert.equal(signup.status, 201, await signup.text());
    const app = await fetch(`${base}/app`);
    assert.equal(app.status, 200);
    assert.match(await app.text(), /<title>Hop<\/title>/);
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exited, 0, output);
});
