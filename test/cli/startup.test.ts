// A cold `hop --version` (and `--help`) must come from the manifest alone: no command module, no
// API client, no zod, no prompt or table library. Node's module hooks record every ESM import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HOP_BIN = fileURLToPath(new URL('../../bin/hop', import.meta.url));

function importsOf(args: string[], extraEnv: Record<string, string> = {}): { stdout: string; code: number | null; urls: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'hop-trace-'));
  const env = { ...process.env, HOP_CONFIG_DIR: join(dir, 'config'), HOP_API_KEY: '', ...extraEnv };
  try {
    const trace = join(dir, 'trace.txt');
    writeFileSync(trace, '');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(trace)}, result.url + '\\n');
  return result;
}`,
    );
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
    const res = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, HOP_BIN, ...args], { encoding: 'utf8', env });
    return { stdout: res.stdout, code: res.status, urls: readFileSync(trace, 'utf8').split('\n').filter(Boolean) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const HEAVY = ['/cli/dist/commands/', '/server/', '/shared/dist/', '/node_modules/zod/', '/node_modules/undici/', '/node_modules/conf/', 'cli-table3', '@inquirer'];

for (const args of [['--version'], ['links', 'create', '--help']]) {
  test(`hop ${args.join(' ')} loads no command and no heavy module`, () => {
    const { stdout, code, urls } = importsOf(args);
    assert.equal(code, 0);
    assert.match(stdout, args[0] === '--version' ? /^@hop\/cli\/\d+\.\d+\.\d+ / : /--expires/);
    assert.ok(urls.some((u) => u.includes('@oclif/core')), 'the trace sees imports');
    const heavy = urls.filter((u) => HEAVY.some((h) => u.includes(h)));
    assert.deepEqual(heavy, []);
  });
}

test('the trace does see a command load when one runs (the check above is not vacuous)', () => {
  const { code, urls } = importsOf(['whoami']);
  assert.equal(code, 4, 'no credential');
  assert.ok(urls.some((u) => u.endsWith('/cli/dist/commands/whoami.js')));
});

test('hop links list loads its command and the client, but no zod, undici, conf or contract schema', () => {
  // A key and a closed port: the command runs to its request, which fails (exit 1) without retrying.
  const { code, urls } = importsOf(['links', 'list', '--no-retry'], { HOP_API_KEY: 'hop_live_startuptrace', HOP_API_URL: 'http://127.0.0.1:9' });
  assert.equal(code, 1);
  assert.ok(urls.some((u) => u.endsWith('/cli/dist/commands/links/list.js')));
  assert.ok(urls.some((u) => u.endsWith('/shared/dist/client.js')));
  const heavy = urls.filter((u) => ['/node_modules/zod/', '/node_modules/undici/', '/node_modules/conf/', '@inquirer', '/shared/dist/routes.js', '/shared/dist/index.js', '/shared/dist/links.js'].some((h) => u.includes(h)));
  assert.deepEqual(heavy, []);
});
