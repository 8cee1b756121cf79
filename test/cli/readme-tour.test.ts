// README.md "A five-minute tour", run as one pasted block from a fresh directory, so the README
// cannot drift from what works. The test changes only what a different machine would: the port
// (3000 → a free one), the path of `./bin/hop`, `npm start` run in the checkout (`npm --prefix`),
// and no `npm install` (the test run has built everything; it would reach the registry). It adds
// `set -e` so that a failing step fails the test. Nothing leaves the machine: curl asks only the
// local server, which stores https://example.com as a destination and never fetches it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../helpers/api.js';
import { freePort } from '../helpers/start-server.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The first ```sh block under the README's tour heading. */
function tourBlock(readme: string): string {
  const section = readme.split(/^## A five-minute tour$/m)[1]?.split(/^## /m)[0];
  const block = section && /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ```sh block under "## A five-minute tour"');
  return block;
}

function adapt(block: string, port: number): string {
  const adapted = block
    .replace(/npm install && npm start/g, `npm --prefix ${root} start`)
    .replace(/localhost:3000/g, `localhost:${port}`)
    .replace(/\.\/bin\/hop\b/g, join(root, 'bin', 'hop'));
  for (const [left, what] of [[/npm install/, 'npm install'], [/localhost:3000/, 'port 3000'], [/\.\/bin\/hop/, './bin/hop']] as const) {
    assert.doesNotMatch(adapted, left, `every ${what} of the tour is adapted`);
  }
  return `set -e\n${adapted}`;
}

test('the README tour works pasted as one block: signup, workspace, CI key, link, redirect, QR code, analytics', { timeout: 240_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hop-tour-'));
  const port = await freePort();
  const script = adapt(tourBlock(readFileSync(join(root, 'README.md'), 'utf8')), port);
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('HOP_') || ['DATABASE_URL', 'PORT', 'CI', 'NO_COLOR'].includes(name)) delete env[name];
  // A fresh user: an empty home (the CLI's settings live there), the server's data there too.
  Object.assign(env, { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PORT: String(port), HOP_DATA_DIR: join(dir, '.hop-data') });
  // The server started in the background keeps the output open after the block ends: a file, not a pipe.
  const outFile = join(dir, 'tour.out');
  const out = openSync(outFile, 'w');
  const lockFile = join(dir, '.hop-data', 'hop.lock');
  try {
    const code = await new Promise<number>((resolve, reject) => {
      const bash = spawn('bash', ['-c', script], { cwd: dir, env: env as NodeJS.ProcessEnv, stdio: ['ignore', out, out] });
      bash.on('error', reject);
      bash.on('exit', (c) => resolve(c ?? 1));
    });
    const output = readFileSync(outFile, 'utf8');
    assert.equal(code, 0, output);
    assert.match(output, /Created ada@example\.com on http:\/\/localhost:\d+ and logged in/);
    assert.match(output, new RegExp(`^http://localhost:${port}/hello$`, 'm'), 'the CI key made the link');
    assert.match(output, /^HTTP\/1\.1 302 Found\r?$/m);
    assert.match(output, /^location: https:\/\/example\.com\/\r?$/im);
    assert.match(output, /█/, 'a QR code drawn');
    assert.match(output, new RegExp(`^http://localhost:${port}/q/\\w+$`, 'm'), 'the code\'s address');
    assert.match(output, /^clicks\t1$/m, 'the visit with a browser\'s user agent is counted');
  } finally {
    closeSync(out);
    if (existsSync(lockFile)) {
      const pid = Number(readFileSync(lockFile, 'utf8'));
      const alive = () => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      if (alive()) process.kill(pid, 'SIGTERM');
      await eventually(async () => (alive() ? undefined : true), 30_000, 'the tour\'s server to stop');
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  }
});
