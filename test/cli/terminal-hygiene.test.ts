// Terminal hygiene: no control character from the server reaches the terminal or a CSV file; CSV
// formula cells are neutralised; tables fit the terminal; the pagination hint follows the table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { team } from '../helpers/api.js';
import { hopSession } from './run-hop.js';
import { hopOnTerminal } from './pty.js';

const ESC = '\u001b';

async function teamWithHostileLink() {
  const t = await team();
  const hop = hopSession();
  await hop.login(t.token);
  await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/a', title: `A${ESC}[31mRED${ESC}[0mB${ESC}]0;pwned\u0007`, tags: ['x'] } });
  await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/b', title: '=HYPERLINK("http://evil.test","click")', description: '@SUM(1+1)' } });
  return { t, hop };
}

test('server text reaches a pipe, a terminal and CSV without control characters; formulas are neutralised', async () => {
  const { hop } = await teamWithHostileLink();
  const [, hostile] = await hop.json<{ id: string }[]>(['links', 'list']);
  const piped = await hop.run(['links', 'get', hostile.id]);
  assert.equal(piped.code, 0, piped.stderr);
  assert.ok(!piped.stdout.includes(ESC) && !piped.stdout.includes('\u0007'), 'no ESC or BEL when piped');
  assert.match(piped.stdout, /A\[31mRED\[0mB\]0;pwned/);
  const tty = hopOnTerminal(['links', 'get', hostile.id], { env: { HOP_CONFIG_DIR: hop.configDir } });
  assert.equal(tty.code, 0, tty.output);
  assert.ok(!tty.output.includes(ESC), 'no ESC on a terminal');
  assert.match(tty.output, /A\[31mRED\[0mB/);
  const table = hopOnTerminal(['links', 'list'], { env: { HOP_CONFIG_DIR: hop.configDir } });
  assert.ok(!table.output.includes(ESC), 'no ESC in a table');
  const csv = await hop.run(['links', 'export', '--format', 'csv']);
  assert.equal(csv.code, 0, csv.stderr);
  assert.ok(!csv.stdout.includes(ESC));
  assert.match(csv.stdout, /"'=HYPERLINK\(""http:\/\/evil\.test"",""click""\)"/);
  assert.match(csv.stdout, /'@SUM\(1\+1\)/);
  const both = await hop.run(['links', 'export', '--format', 'csv', '--json']);
  assert.equal(both.code, 2, '--format csv --json is a usage error');
  assert.equal(both.stdout, '');
});

test('tables fit the terminal width, cut with …; the pagination hint comes after the table', async () => {
  const { t, hop } = await teamWithHostileLink();
  await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: `https://example.com/${'long-path/'.repeat(12)}`, title: 'T'.repeat(80) } });
  const narrow = hopOnTerminal(['links', 'list', '--limit', '2'], { env: { HOP_CONFIG_DIR: hop.configDir }, columns: 60 });
  assert.equal(narrow.code, 0, narrow.output);
  const lines = narrow.output.split('\n').filter(Boolean);
  const table = lines.filter((l) => !l.startsWith('More links'));
  for (const line of table) assert.ok([...line].length <= 60, `fits 60 columns: ${JSON.stringify(line)} (${[...line].length})`);
  assert.ok(narrow.output.includes('…'), 'long values are cut with …');
  assert.match(lines.at(-1)!, /^More links: add --cursor \S+ \(or --all\)$/, 'the hint is the last line');
});
