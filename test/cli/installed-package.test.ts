// The CLI as users get it: `npm run pack:cli` packs one tarball, which installs with
// `npm install -g` into a prefix of its own, outside the checkout, for a user whose HOME is an empty
// directory, with the registry unreachable (the tarball must carry everything). The installed `hop`
// then works against the test server, as does `npx ./<tarball>`.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { API_URL, apiKey, team } from '../helpers/api.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { cleanEnv, installGlobal, pack } from '../../scripts/pack/install-tarball.mjs';

const scratch = scratchDir('hop-cli-package-');
const home = join(scratch, 'home');
let tarball = '';
let hop = '';
let packageDir = '';

before(() => {
  tarball = pack('cli', scratch);
  ({ bin: hop, packageDir } = installGlobal({ tarball, prefix: join(scratch, 'prefix'), home, which: 'cli' }));
});

/** Runs a command as that user, in their empty HOME, with `extra` in the environment. */
function asUser(command: string, args: string[], extra: Record<string, string> = {}, input = '') {
  const res = spawnSync(command, args, { cwd: home, env: { ...cleanEnv(home), NO_COLOR: '1', ...extra }, input, encoding: 'utf8' });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

test('the package is named hop-cli, carries its dependencies and no workspace-private one', () => {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'hop-cli');
  assert.deepEqual(pkg.bin, { hop: 'bin/hop.js' });
  for (const name of Object.keys(pkg.dependencies)) {
    assert.ok(!name.startsWith('@hop/'), `${name} is private to the workspace`);
    assert.ok(pkg.bundleDependencies.includes(name), `${name} is carried in the tarball`);
  }
  assert.ok(!existsSync(join(packageDir, 'node_modules', '@hop')), 'the contracts are bundled, not installed');
  // Commands stay files of their own, found through the manifest: a cold start loads only its command.
  assert.ok(existsSync(join(packageDir, 'dist', 'commands', 'links', 'create.js')));
  const manifest = JSON.parse(readFileSync(join(packageDir, 'oclif.manifest.json'), 'utf8'));
  assert.ok(manifest.commands['links:create'], 'the manifest lists links create');
});

test('the installed hop prints its version, runs the bundled autocomplete plugin and its hook', () => {
  const res = asUser(hop, ['--version']);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /^hop-cli\/\d+\.\d+\.\d+ \S+ node-v\d+/);
  const completion = asUser(hop, ['autocomplete', 'bash']);
  assert.equal(completion.code, 0, completion.stderr);
  assert.match(completion.stdout, /hop autocomplete/);
  const unknown = asUser(hop, ['lnks', 'list']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /did you mean "hop links list"/);
});

test('the installed hop logs in with an API key (settings under the empty HOME) and creates a link', async () => {
  const t = await team();
  const key = await apiKey(t, ['links:read', 'links:write']);
  const login = asUser(hop, ['login', '--with-token', '--api-url', API_URL], {}, key.key);
  assert.equal(login.code, 0, login.stderr);
  assert.ok(readdirSync(home, { recursive: true }).some((f) => String(f).endsWith('.json') && String(f).includes('hop')), 'the settings file is in HOME');
  const created = asUser(hop, ['links', 'create', 'https://example.com/installed?utm_source=package', '--tag', 'package', '--json']);
  assert.equal(created.code, 0, created.stderr);
  const link = JSON.parse(created.stdout);
  assert.equal(link.url, 'https://example.com/installed?utm_source=package');
  const { data } = await key.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: link.id } });
  assert.deepEqual(data.tags, ['package']);
  // Human output on a pipe is the short URL alone.
  const plain = asUser(hop, ['links', 'list']);
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, new RegExp(link.slug));
});

test('npx ./<tarball> links create works with HOP_API_KEY alone', async () => {
  const t = await team();
  const key = await apiKey(t, ['links:read', 'links:write']);
  copyFileSync(tarball, join(home, basename(tarball)));
  const res = asUser('npx', ['--yes', '--offline', `./${basename(tarball)}`, 'links', 'create', 'https://example.com/npx'], { HOP_API_URL: API_URL, HOP_API_KEY: key.key });
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout.trim(), /^http:\/\/localhost:\d+\/[A-Za-z0-9_-]+$/);
  const links = await key.api.call('listLinks', { params: { workspaceId: t.workspaceId }, query: {} });
  assert.deepEqual(links.data.map((l) => l.url), ['https://example.com/npx']);
});

test('the installed hop mcp answers an MCP client on stdio with the bundled SDK', async () => {
  const t = await team();
  const key = await apiKey(t, ['links:read']);
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'package-test', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_links', arguments: {} } },
  ];
  const res = asUser(hop, ['mcp', '--read-only'], { HOP_API_URL: API_URL, HOP_API_KEY: key.key }, messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  assert.equal(res.code, 0, res.stderr);
  const answers = new Map(res.stdout.trim().split('\n').map((line) => JSON.parse(line)).map((a) => [a.id, a.result]));
  assert.equal(answers.get(1).serverInfo.name, 'hop');
  assert.deepEqual(answers.get(2).tools.map((tool: { name: string }) => tool.name), ['get_link', 'list_links', 'link_analytics', 'workspace_analytics', 'resolve_link']);
  assert.deepEqual(answers.get(3).structuredContent, { links: [], nextCursor: null });
});

test('the installed hop loads the packages it imports on demand (yaml, csv-stringify) from its node_modules', async () => {
  const t = await team();
  const key = await apiKey(t, ['links:read', 'links:write']);
  const env = { HOP_API_URL: API_URL, HOP_API_KEY: key.key };
  writeFileSync(join(home, 'links.yaml'), 'links:\n  - slug: from-yaml\n    url: https://example.com/yaml\n');
  const plan = asUser(hop, ['links', 'apply', '-f', 'links.yaml', '--plan'], env);
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, /from-yaml\n\s+url: "https:\/\/example.com\/yaml"/);
  assert.equal(asUser(hop, ['links', 'create', 'https://example.com/csv'], env).code, 0);
  const csv = asUser(hop, ['links', 'export', '--format', 'csv'], env);
  assert.equal(csv.code, 0, csv.stderr);
  assert.match(csv.stdout, /^.*url.*\n.*https:\/\/example.com\/csv/);
});

test('the installed hop keeps V8 code caches of its bundle, one a command, in the user cache directory', () => {
  const user = join(scratch, 'home-cache');
  const cacheDir = join(user, '.cache', 'hop', 'compile-cache');
  const cached = () => (existsSync(cacheDir) ? readdirSync(cacheDir).sort() : []);
  const run = (args: string[], extra: Record<string, string> = {}) => {
    const res = spawnSync(hop, args, { cwd: scratch, env: { ...cleanEnv(user), NO_COLOR: '1', ...extra }, encoding: 'utf8' });
    assert.equal(res.status, 0, res.stderr);
    assert.equal(res.stderr, '');
    return res.stdout;
  };
  assert.match(run(['--version'], { NODE_DISABLE_COMPILE_CACHE: '1' }), /^hop-cli\//);
  assert.deepEqual(cached(), [], 'NODE_DISABLE_COMPILE_CACHE: none written');
  run(['--version']);
  run(['links', 'list', '--help']);
  const files = cached();
  assert.equal(files.length, 2, files.join(', '));
  const [root, list] = files.map((name) => join(cacheDir, name));
  assert.match(list, new RegExp(`-${process.version}-${process.arch}-links-list\\.bin$`));
  assert.match(root, /-hop\.bin$/);
  // A cache V8 accepts is used as it is, not written again.
  const written = statSync(root);
  run(['--version']);
  assert.equal(statSync(root).mtimeMs, written.mtimeMs);
  assert.equal(statSync(root).ino, written.ino);
  // A damaged one costs a compile: the same output, and a good cache in its place.
  writeFileSync(root, 'not a code cache');
  assert.match(run(['--version']), /^hop-cli\//);
  assert.ok(statSync(root).size > 10_000, 'written again');
  // XDG_CACHE_HOME is honoured, as for other programs.
  run(['--version'], { XDG_CACHE_HOME: join(user, 'xdg') });
  assert.equal(readdirSync(join(user, 'xdg', 'hop', 'compile-cache')).length, 1);
});
