// gh-grade manners: usage errors on stderr with a suggestion (exit 2, never a prompt), help and
// version, autocomplete, examples and --json on every command, one verb per meaning (old verbs
// kept as hidden aliases), --add-tag/--remove-tag, --password-stdin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { team, visit } from '../helpers/api.js';
import { converseOnTerminal } from './pty.js';
import { hopSession, runHop } from './run-hop.js';

const manifest = JSON.parse(readFileSync(new URL('../../cli/oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<string, { examples?: string[]; flags: Record<string, unknown>; hidden?: boolean; aliases?: string[]; hiddenAliases?: string[] }>;
};

test('an unknown command or flag exits 2 with the closest one on stderr, never a prompt', async () => {
  for (const [args, suggestion] of [[['lnks', 'list'], 'hop links list'], [['whoam'], 'hop whoami'], [['links', 'lst'], 'hop links list']] as const) {
    const res = await runHop([...args]);
    assert.equal(res.code, 2, args.join(' '));
    assert.equal(res.stdout, '');
    assert.equal(res.stderr, `Error: unknown command "${args.join(' ')}"; did you mean "${suggestion}"? (see \`hop --help\`)\n`);
  }
  const flag = await runHop(['links', 'list', '--jsn']);
  assert.equal(flag.code, 2);
  assert.equal(flag.stderr, 'Error: unknown flag --jsn; did you mean --json? (see `hop links list --help`)\n');
  const missing = await runHop(['links', 'update', '--tag', 'a']);
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr, 'Error: missing <linkId>: usage `hop links update <linkId>` (see `hop links update --help`)\n');
});

test('-h, hop help, hop version (and --json), hop autocomplete', async () => {
  const short = await runHop(['links', 'create', '-h']);
  assert.equal(short.code, 0);
  assert.match(short.stdout, /USAGE\n {2}\$ hop links create/);
  const help = await runHop(['help', 'links', 'create']);
  assert.equal(help.code, 0);
  assert.equal(help.stdout, short.stdout);
  const version = await runHop(['version']);
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^@hop\/cli\/\d+\.\d+\.\d+ /);
  const json = JSON.parse((await runHop(['version', '--json'])).stdout);
  assert.equal(json.node, process.version);
  const home = mkdtempSync(join(tmpdir(), 'hop-ac-'));
  try {
    const ac = await runHop(['autocomplete', 'bash'], { env: { HOME: home, XDG_CACHE_HOME: join(home, '.cache') } });
    assert.equal(ac.code, 0, ac.stderr);
    assert.match(ac.stdout, /hop/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('every command has examples and --json (help, autocomplete and mcp aside); old verbs are hidden aliases', () => {
  for (const [id, c] of Object.entries(manifest.commands)) {
    if (id === 'help' || id.startsWith('autocomplete')) continue;
    assert.ok(c.examples?.length, `${id} has examples`);
    // `hop mcp`'s stdout is the Model Context Protocol's: there is no result to print.
    if (id !== 'mcp') assert.ok('json' in c.flags, `${id} has --json`);
  }
  const ids = Object.keys(manifest.commands);
  for (const old of ['keys:revoke', 'invites:revoke', 'domains:remove', 'members:remove']) {
    assert.ok(!ids.includes(old), `${old} is no longer a command of its own`);
    assert.ok(Object.values(manifest.commands).some((c) => c.hiddenAliases?.includes(old)), `${old} still works`);
  }
});

test('links update --add-tag/--remove-tag keep the other tags; --tag replaces them; --password-stdin', async () => {
  const t = await team('pro');
  const hop = hopSession();
  await hop.login(t.token);
  const link = await hop.json<{ id: string; slug: string }>(['links', 'create', 'https://example.com/t', '--tag', 'a', '--tag', 'draft']);
  const added = await hop.json<{ tags: string[] }>(['links', 'update', link.slug, '--add-tag', 'q4', '--remove-tag', 'draft']);
  assert.deepEqual([...added.tags].sort(), ['a', 'q4']);
  const replaced = await hop.json<{ tags: string[] }>(['links', 'update', link.slug, '--tag', 'only']);
  assert.deepEqual(replaced.tags, ['only']);
  const conflict = await hop.run(['links', 'update', link.slug, '--tag', 'x', '--add-tag', 'y']);
  assert.equal(conflict.code, 2);
  const locked = await hop.run(['links', 'create', 'https://example.com/locked', '--password-stdin', '--json'], { input: 'a link passphrase\n' });
  assert.equal(locked.code, 0, locked.stderr);
  assert.equal(JSON.parse(locked.stdout).passwordProtected, true);
});

test('qr download --json saves the image and prints a record', async () => {
  const t = await team();
  const hop = hopSession();
  await hop.login(t.token);
  const link = await hop.json<{ slug: string }>(['links', 'create', 'https://example.com/q']);
  const qr = await hop.json<{ id: string }>(['qr', 'create', link.slug, '--format', 'svg']);
  const dir = mkdtempSync(join(tmpdir(), 'hop-qr-'));
  try {
    const path = join(dir, 'code.svg');
    const res = await hop.json<{ path: string; bytes: number; contentType: string }>(['qr', 'download', qr.id, '--output', path]);
    assert.equal(res.path, path);
    assert.ok(res.bytes > 100);
    assert.match(readFileSync(path, 'utf8'), /<svg/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('on a terminal, --password-stdin asks for the link password, hidden and twice; a mismatch is exit 2', async () => {
  const t = await team('pro');
  const hop = hopSession();
  await hop.login(t.token);
  const env = { HOP_CONFIG_DIR: hop.configDir };
  const secret = 'typed at a prompt';
  const asked = await converseOnTerminal(['links', 'create', 'https://example.com/prompted', '--password-stdin'], [
    { waitFor: /Link password \(at least 8 characters\):/, type: `${secret}\r` },
    { waitFor: /Again:/, type: `${secret}\r` },
  ], { env });
  assert.equal(asked.code, 0, asked.output);
  assert.ok(!asked.output.includes(secret), 'the password is not shown');
  const shortUrl = /(http:\/\/\S+\/[A-Za-z0-9]+)\n/.exec(asked.output)?.[1];
  assert.ok(shortUrl, asked.output);
  assert.equal((await visit(shortUrl, { method: 'POST', body: 'password=wrong%20one' })).status, 401);
  assert.equal((await visit(shortUrl, { method: 'POST', body: `password=${encodeURIComponent(secret)}` })).status, 302);

  const differ = await converseOnTerminal(['links', 'create', 'https://example.com/differ', '--password-stdin'], [
    { waitFor: /Link password/, type: 'first passphrase\r' },
    { waitFor: /Again:/, type: 'second passphrase\r' },
  ], { env });
  assert.equal(differ.code, 2, differ.output);
  assert.match(differ.output, /Error: the link passwords differ/);
});
