import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Link, QrAnalytics, QrCode } from '@hop/shared';
import { API_URL, eventually, team, visit, type Team } from '../helpers/api.js';
import { decode, decodePng, decodeTerminalText } from '../helpers/qr-decode.js';
import { hopOnTerminal } from './pty.js';
import { hopSession } from './run-hop.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';

let t: Team;
let hop: ReturnType<typeof hopSession>;
let link: Link;
before(async () => {
  t = await team('pro');
  hop = hopSession();
  await hop.login(t.token);
  link = (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/cli-qr' } })).data;
});

/** `hop` with stdout kept as bytes (images are not text). */
function hopBytes(args: string[], configDir: string): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  const bin = fileURLToPath(new URL('../../bin/hop', import.meta.url));
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOP_API_URL: API_URL, HOP_CONFIG_DIR: configDir, NO_COLOR: '1' };
    delete env.HOP_API_KEY;
    delete env.CI;
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr }));
    child.stdin.end();
  });
}

test('qr create: piped it prints the download URL; --json the record with every flag applied', async () => {
  const res = await hop.run(['qr', 'create', link.id]);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, /^https?:\/\/\S+\/v1\/qr\/qr_[0-9A-Za-z]+\/download\n$/);
  const qr = await hop.json<QrCode>(['qr', 'create', link.id, '--format', 'svg', '--size', '256', '--fg', '#1a1a2e', '--bg', '#fafafa', '--ec', 'Q']);
  assert.deepEqual(
    [qr.format, qr.size, qr.foregroundColor, qr.backgroundColor, qr.errorCorrection, qr.linkId],
    ['svg', 256, '#1a1a2e', '#fafafa', 'Q', link.id],
  );
  const bad = await hop.run(['qr', 'create', link.id, '--fg', '#777777', '--bg', '#888888']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /contrast ratio .*\(VALIDATION_ERROR\)/);
  const loopback = await hop.run(['qr', 'create', link.id, '--logo', 'https://127.0.0.1/logo.png']);
  assert.equal(loopback.code, 1);
  assert.match(loopback.stderr, /non-public address.*\(URL_NOT_ALLOWED\)/);
  const usage = await hop.run(['qr', 'create', link.id, '--format', 'gif']);
  assert.equal(usage.code, 2);
});

test('qr download: bytes to stdout when piped, or to --output; both decode', async () => {
  const png = await hop.json<QrCode>(['qr', 'create', link.id, '--size', '300']);
  const piped = await hopBytes(['qr', 'download', png.id], hop.configDir);
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(await decodePng(piped.stdout), png.scanUrl);

  const pdf = await hop.json<QrCode>(['qr', 'create', link.id, '--format', 'pdf']);
  const file = join(scratchDir('hop-qr-cli-'), 'code.pdf');
  const saved = await hop.run(['qr', 'download', pdf.id, '--output', file]);
  assert.equal(saved.code, 0, saved.stderr);
  assert.equal(saved.stdout, '');
  assert.equal(await decode('pdf', readFileSync(file)), pdf.scanUrl);

  const missing = await hop.run(['qr', 'download', 'qr_0000000000000000000000']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /NOT_FOUND/);
});

test('qr show draws the newest code; list, analytics and delete', async () => {
  const other = (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/other' } })).data;
  const none = await hop.run(['qr', 'show', other.id]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /hop qr create/);
  const qr = await hop.json<QrCode>(['qr', 'create', other.id]);
  const shown = await hop.run(['qr', 'show', other.id]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /[▀▄█]/);
  assert.ok(shown.stdout.includes(qr.scanUrl));

  const list = await hop.json<QrCode[]>(['qr', 'list', other.id]);
  assert.deepEqual(list.map((q) => q.id), [qr.id]);
  const table = await hop.run(['qr', 'list', other.id]);
  assert.match(table.stdout, new RegExp(`^${qr.id}\\tpng\\t512\\tM\\t`));

  assert.equal((await visit(qr.scanUrl, { ip: '8.8.8.8' })).status, 302);
  const stats = await eventually(async () => {
    const a = await hop.json<QrAnalytics>(['qr', 'analytics', qr.id, '--days', '7']);
    return a.totalScans === 1 ? a : undefined;
  }, 8000, 'one scan');
  assert.deepEqual(stats.scansByCountry, [{ country: 'US', scans: 1 }]);
  assert.equal(stats.timeseries.length, 7);

  const refused = await hop.run(['qr', 'delete', qr.id]);
  assert.equal(refused.code, 2);
  const deleted = await hop.run(['qr', 'delete', qr.id, '--yes']);
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(deleted.stdout, `${qr.id}\n`);
  assert.deepEqual(await hop.json<QrCode[]>(['qr', 'list', other.id]), []);
});

test('qr show draws a code that scans on dark and light terminals: colours on a terminal, COLORFGBG or --invert without', async () => {
  const qr = await hop.json<QrCode>(['qr', 'create', link.id]);
  // On a terminal with colours: black on white whatever the theme.
  const tty = hopOnTerminal(['qr', 'show', link.id], { env: { HOP_CONFIG_DIR: hop.configDir, NO_COLOR: '' } });
  assert.equal(tty.code, 0, tty.output);
  assert.match(tty.output, /\x1b\[38;5;16;48;5;231m/);
  assert.equal(decodeTerminalText(tty.output, 'dark'), qr.scanUrl, 'dark terminal, colours');
  assert.equal(decodeTerminalText(tty.output, 'light'), qr.scanUrl, 'light terminal, colours');
  // Without colours: drawn for the background COLORFGBG names (dark when unknown), --invert for the other.
  const cases = [
    { env: {}, args: [], theme: 'dark' },
    { env: { COLORFGBG: '15;0' }, args: [], theme: 'dark' },
    { env: { COLORFGBG: '0;15' }, args: [], theme: 'light' },
    { env: { COLORFGBG: '0;default;15' }, args: [], theme: 'light' },
    { env: {}, args: ['--invert'], theme: 'light' },
    { env: { COLORFGBG: '0;15' }, args: ['--invert'], theme: 'dark' },
  ] as const;
  for (const c of cases) {
    const piped = await hop.run(['qr', 'show', link.id, ...c.args], { env: c.env });
    assert.equal(piped.code, 0, piped.stderr);
    assert.ok(!piped.stdout.includes('\x1b'), 'no escape codes without colours');
    const what = `${JSON.stringify(c.env)} ${c.args.join(' ')}`;
    assert.equal(decodeTerminalText(piped.stdout, c.theme), qr.scanUrl, `${what} on a ${c.theme} terminal`);
    // The check can fail: the same drawing on the other theme is an inverted code.
    assert.equal(decodeTerminalText(piped.stdout, c.theme === 'dark' ? 'light' : 'dark'), null, `${what} on the other theme`);
  }
});
