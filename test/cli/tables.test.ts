// Tables that fit, like gh's, on a real pseudo-terminal: at 80 columns a link's slug and short URL
// in full, then what room is left; --wide with full ids; the ids other commands take never cut;
// an empty list is one line saying so, never a lone header.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiKey, team, unique, type Team } from '../helpers/api.js';
import { hopOnTerminal } from './pty.js';
import { hopSession } from './run-hop.js';
import type { Link } from '@hop/shared';

let t: Team;
let hop: ReturnType<typeof hopSession>;
let links: Link[];
before(async () => {
  t = await team();
  hop = hopSession();
  await hop.login(t.token);
  assert.equal((await hop.run(['workspaces', 'use', t.slug])).code, 0);
  links = [];
  for (const n of [1, 2]) {
    links.push(await hop.json<Link>(['links', 'create', `https://example.com/${'a-long-path-segment/'.repeat(6)}${n}`, '--slug', unique(`table-${n}-`)]));
  }
});

const onTerminal = (args: string[], columns: number) => {
  const res = hopOnTerminal(args, { env: { HOP_CONFIG_DIR: hop.configDir }, columns });
  assert.equal(res.code, 0, res.output);
  return res.output.split('\n').filter(Boolean);
};

const fits = (lines: string[], columns: number) => {
  for (const line of lines) assert.ok([...line].length <= columns, `fits ${columns} columns: ${JSON.stringify(line)} (${[...line].length})`);
};

test('links list at 80 columns: slug and short URL in full, the destination cut, no line (header included) wider', () => {
  const lines = onTerminal(['links', 'list'], 80);
  fits(lines, 80);
  assert.match(lines[0], /^SLUG +SHORT URL +DESTINATION/);
  for (const link of links) {
    const row = lines.find((l) => l.startsWith(`${link.slug} `));
    assert.ok(row, `a row for ${link.slug}: ${lines.join('\n')}`);
    assert.ok(row.includes(link.shortUrl), `the short URL in full: ${row}`);
    assert.match(row, / https:\/\/example\S*…$/, 'the destination, cut');
    assert.ok(row.includes('…'), 'cut with …');
    assert.ok(!row.includes(link.id), 'no id without --wide');
  }
  // In colour the header is bold: its padding hides inside the escape codes, and is trimmed too.
  const bold = hopOnTerminal(['links', 'list'], { env: { HOP_CONFIG_DIR: hop.configDir, NO_COLOR: '' }, columns: 80 });
  assert.match(bold.output, /\u001b\[1mSLUG/);
  // eslint-disable-next-line no-control-regex
  fits(bold.output.split('\n').map((l) => l.replace(/\u001b\[[0-9;]*m/g, '')), 80);
});

test('links list at 120 columns adds clicks and a relative date; --wide gives ids and exact times', () => {
  const lines = onTerminal(['links', 'list'], 120);
  fits(lines, 120);
  assert.match(lines[0], /^SLUG +SHORT URL +DESTINATION +CLICKS +CREATED$/);
  const row = lines.find((l) => l.startsWith(`${links[0].slug} `))!;
  assert.match(row, / 0 +(just now|\d+m ago)$/);
  const wide = onTerminal(['links', 'list', '--wide'], 80);
  assert.match(wide[0], /^ID +SLUG +SHORT URL +DESTINATION +TAGS +CLICKS +STATUS +CREATED$/);
  for (const link of links) {
    const line = wide.find((l) => l.startsWith(`${link.id} `));
    assert.ok(line?.includes(link.url) && line.includes(link.createdAt), `every value in full: ${line}`);
  }
});

test('piped rows keep their columns: id, short URL, destination, tags, clicks, status, created', async () => {
  const piped = await hop.run(['links', 'list']);
  const row = piped.stdout.split('\n').find((l) => l.startsWith(links[0].id))!.split('\t');
  assert.deepEqual(row, [links[0].id, links[0].shortUrl, links[0].url, '', '0', 'active', links[0].createdAt]);
});

test('keys, members and QR codes lists keep the ids other commands take whole at 80 columns', async () => {
  const key = await apiKey(t, ['links:read', 'links:write', 'analytics:read', 'tags:read', 'domains:read'], 'a key with a rather long name for the table');
  const qr = await hop.json<{ id: string }>(['qr', 'create', links[0].slug]);
  for (const [args, id] of [[['keys', 'list'], key.id], [['members', 'list'], t.userId], [['qr', 'list', links[0].slug], qr.id]] as const) {
    const lines = onTerminal([...args], 80);
    fits(lines, 80);
    assert.ok(lines.some((l) => l.startsWith(`${id} `)), `${args.join(' ')} shows ${id} whole:\n${lines.join('\n')}`);
  }
});

test('an empty list prints one line saying so, and no header', async () => {
  const empty = await team();
  const other = hopSession();
  await other.login(empty.token);
  assert.equal((await other.run(['workspaces', 'use', empty.slug])).code, 0);
  for (const [args, said] of [
    [['links', 'list'], 'No links in this workspace: create one with `hop links create <url>`'],
    [['links', 'list', '--tag', 'nothing'], 'No links match'],
    [['webhooks', 'list'], 'No webhooks: create one with `hop webhooks create --url <url> --event <type>`'],
    [['tags', 'list'], 'No tags: add one to a link with `hop links update <slug> --tag <tag>`'],
  ] as const) {
    const res = hopOnTerminal([...args], { env: { HOP_CONFIG_DIR: other.configDir }, columns: 80 });
    assert.equal(res.code, 0, res.output);
    assert.deepEqual(res.output.split('\n').filter(Boolean), [said], args.join(' '));
  }
  const piped = await other.run(['links', 'list']);
  assert.equal(piped.stdout, '', 'piped: nothing on stdout');
  assert.deepEqual(await other.json(['links', 'list']), []);
});
