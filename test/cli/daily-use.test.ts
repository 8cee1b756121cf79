// Behaviour a daily user trips over: words instead of validator text with fields named as flags,
// next steps for TIER_REQUIRED and INSUFFICIENT_SCOPE, empty or malformed credentials, a bare host,
// qr download by slug, the delete prompt, whoami's slug, hop open without a browser, help text.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiKey, API_URL, unique, type Team } from '../helpers/api.js';
import { converseOnTerminal, hopOnTerminal } from './pty.js';
import { hopSession, loggedInTeam, runHop } from './run-hop.js';
import type { Link } from '@hop/shared';

let t: Team;
let hop: ReturnType<typeof hopSession>;
before(async () => {
  ({ t, hop } = await loggedInTeam());
});

test('validation errors are words, each field named as its flag or argument', async () => {
  const long = await hop.run(['links', 'create', 'https://example.com', '--title', 'x'.repeat(300), '--slug', 'api']);
  assert.equal(long.code, 1);
  assert.equal(long.stderr, 'Error: --slug: "api" is a reserved word (the server\'s own paths use it); --title: must be at most 256 characters (VALIDATION_ERROR)\n');
  const key = await hop.run(['keys', 'create', '--name', '', '--scope', 'links:read']);
  assert.equal(key.code, 1);
  assert.equal(key.stderr, "Error: --name: can't be empty (VALIDATION_ERROR)\n");
  const url = await hop.run(['links', 'create', 'ftp://example.com/file']);
  assert.match(url.stderr, /^Error: <url>: must be an absolute http or https URL \(VALIDATION_ERROR\)\n$/);
  const slug = unique('taken-');
  await hop.json(['links', 'create', 'https://example.com/first', '--slug', slug]);
  const taken = await hop.run(['links', 'create', 'https://example.com/second', '--slug', slug]);
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, new RegExp(`^Error: the slug "${slug}" is taken on \\S+; "${slug}-2" is free \\(SLUG_ALREADY_EXISTS\\)\\n$`));
});

test('TIER_REQUIRED names the billing page; INSUFFICIENT_SCOPE the scope to ask for', async () => {
  const gated = await hop.run(['links', 'create', 'https://example.com/private', '--password', 'open sesame!']);
  assert.equal(gated.code, 1);
  assert.match(gated.stderr, /it needs the \w+ plan: upgrade on the billing page at \S+\/settings\/billing \(`hop open billing`\) \(TIER_REQUIRED\)\n$/);
  const reader = await apiKey(t, ['links:read']);
  const denied = await runHop(['links', 'create', 'https://example.com/x'], { env: { HOP_API_KEY: reader.key } });
  assert.equal(denied.code, 1);
  assert.match(denied.stderr, /use a key with the links:write scope \(`hop keys create --name <name> --scope links:write`\) or log in with it \(`hop login --scope links:write`\) \(INSUFFICIENT_SCOPE\)\n$/);
});

test('HOP_API_KEY set but empty, or malformed, exits 4: invalid or empty credential', async () => {
  for (const value of ['', '   ', 'not a key', 'hop_live_']) {
    const res = await hop.run(['links', 'list'], { env: { HOP_API_KEY: value } });
    assert.equal(res.code, 4, JSON.stringify(value));
    assert.match(res.stderr, /^Error: invalid or empty credential\b.*\(UNAUTHORIZED\)\n$/, res.stderr);
  }
});

test('links create example.com adds https:// and says so on stderr', async () => {
  const res = await hop.run(['links', 'create', 'example.com/bare?x=1']);
  assert.equal(res.code, 0, res.stderr);
  assert.equal(res.stderr, 'No scheme given: using https://example.com/bare?x=1\n');
  const link = await hop.json<Link>(['links', 'get', res.stdout.trim().split('/').pop()!]);
  assert.equal(link.url, 'https://example.com/bare?x=1');
});

test('qr download takes a slug like qr show: the newest code of the link', async () => {
  const link = await hop.json<Link>(['links', 'create', 'https://example.com/qr-by-slug']);
  const none = await hop.run(['qr', 'download', link.slug, '--output', '-']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /has no QR code yet: create one with `hop qr create/);
  const qr = await hop.json<{ id: string }>(['qr', 'create', link.slug, '--format', 'svg']);
  const dir = mkdtempSync(join(tmpdir(), 'hop-qr-slug-'));
  try {
    const bySlug = await hop.json<{ qrId: string; path: string }>(['qr', 'download', link.slug, '--output', join(dir, 'a.svg')]);
    assert.equal(bySlug.qrId, qr.id);
    assert.equal((await hop.run(['qr', 'download', qr.id, '--output', join(dir, 'b.svg')])).code, 0);
    assert.equal(readFileSync(join(dir, 'a.svg'), 'utf8'), readFileSync(join(dir, 'b.svg'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the delete prompt names the slug; No exits 0 and deletes nothing', async () => {
  const link = await hop.json<Link>(['links', 'create', 'https://example.com/keep', '--slug', unique('keep-')]);
  const res = await converseOnTerminal(['links', 'delete', link.id], [{ waitFor: /Delete the link/, type: 'n\r' }], { env: { HOP_CONFIG_DIR: hop.configDir } });
  assert.equal(res.code, 0, res.output);
  assert.ok(res.output.includes(`Delete the link "${link.slug}" (${link.shortUrl})?`), res.output);
  assert.match(res.output, /Nothing changed/);
  assert.doesNotMatch(res.output, /Error/);
  assert.equal((await hop.json<Link>(['links', 'get', link.slug])).id, link.id);
});

test('whoami shows the workspace slug, also when the workspace is given by id', async () => {
  const res = await hop.run(['whoami'], { env: { HOP_WORKSPACE: t.workspaceId } });
  assert.equal(res.code, 0, res.stderr);
  assert.ok(res.stdout.split('\n').includes(`workspace\t${t.slug} (${t.workspaceId})`), res.stdout);
  assert.equal((await hop.json<{ workspaceSlug: string }>(['whoami'], { env: { HOP_WORKSPACE: t.workspaceId } })).workspaceSlug, t.slug);
});

test('hop open with no working browser prints the address and exits 0', () => {
  const res = hopOnTerminal(['open', 'billing'], {
    env: { HOP_CONFIG_DIR: hop.configDir, BROWSER: 'false', DISPLAY: '', WAYLAND_DISPLAY: '', XDG_CURRENT_DESKTOP: '' },
  });
  assert.equal(res.code, 0, res.output);
  assert.ok(res.output.split('\n').includes(`${API_URL}/app/${t.slug}/settings/billing`), res.output);
});

test('hop login -h has readable usage lines; help examples are written one way', async () => {
  const help = await runHop(['login', '-h']);
  const usage = help.stdout.split(/\n\n/)[1]!;
  assert.doesNotMatch(usage, /\| *\||\| *\]/, usage);
  assert.match(usage, /\$ hop login --with-token \[--api-url <url>\]/);
  const manifest = JSON.parse(readFileSync(new URL('../../cli/oclif.manifest.json', import.meta.url), 'utf8')) as { commands: Record<string, { examples?: string[] }> };
  for (const [id, c] of Object.entries(manifest.commands)) {
    for (const example of c.examples ?? []) {
      assert.match(example, /<%= config\.bin %> /, `${id}: ${example}`);
      assert.doesNotMatch(example, /\b[a-z]+_(\.\.\.|0abc)/, `${id}: ids are written in full (or as a slug): ${example}`);
      for (const part of example.split('|').filter((p) => p.includes('config.bin'))) {
        assert.doesNotMatch(part.replace(/#.*$/, ''), /\s-[A-Za-z]\b/, `${id}: long flags in examples: ${example}`);
      }
    }
  }
});
