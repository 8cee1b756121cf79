// `hop signup`: flags and --password-stdin in scripts, never a password flag; the next step is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anonymous, signup, unique } from '../helpers/api.js';
import { hopSession } from './run-hop.js';
import { converseOnTerminal } from './pty.js';

test('hop signup --password-stdin creates the account (trailing newline dropped), logs in and names the next command', async () => {
  const hop = hopSession();
  const email = `${unique('su')}@example.test`;
  const res = await hop.run(['signup', '--email', email, '--name', 'Ada', '--password-stdin'], { input: ' a long passphrase \n' });
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stderr, /Next: create a workspace with `hop workspaces create --name "My team" --use`/);
  const me = await hop.json<{ user: { email: string }; workspace: string | null }>(['whoami']);
  assert.equal(me.user.email, email);
  assert.equal(me.workspace, null);
  // Only the newline was dropped: the spaces belong to the password.
  const { data } = await anonymous.call('login', { body: { email, password: ' a long passphrase ' } });
  assert.equal(data.user.email, email);
  const json = await hop.run(['signup', '--email', `${unique('su')}@example.test`, '--name', 'B', '--password-stdin', '--json'], { input: 'another passphrase\n' });
  assert.equal(json.code, 0, json.stderr);
  assert.ok(JSON.parse(json.stdout).user.id.startsWith('usr_'));
});

test('hop signup without a terminal needs --email, --name and --password-stdin (exit 2); a taken e-mail exits 1', async () => {
  const hop = hopSession();
  const missing = await hop.run(['signup', '--name', 'A', '--password-stdin'], { input: 'a long passphrase\n' });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--email is required when not on a terminal/);
  const noPassword = await hop.run(['signup', '--email', 'x@example.test', '--name', 'A']);
  assert.equal(noPassword.code, 2);
  assert.match(noPassword.stderr, /--password-stdin/);
  const taken = await signup();
  const conflict = await hop.run(['signup', '--email', taken.email, '--name', 'A', '--password-stdin'], { input: 'a long passphrase\n' });
  assert.equal(conflict.code, 1);
  assert.match(conflict.stderr, /already exists \(CONFLICT\)/);
});

test('a login with no workspace is told the exact next command', async () => {
  const account = await signup();
  const hop = hopSession();
  const res = await hop.login(account.token);
  assert.match(res.stderr, /You belong to no workspace yet: create one with `hop workspaces create --name "My team" --use`/);
});

test('on a terminal, hop signup asks for the e-mail, the name and the password (hidden, twice)', async () => {
  const hop = hopSession();
  const email = `${unique('su')}@example.test`;
  const res = await converseOnTerminal(['signup'], [
    { waitFor: /E-mail:/, type: `${email}\r` },
    { waitFor: /Name:/, type: 'Grace\r' },
    { waitFor: /Password \(at least 8 characters\):/, type: 'a prompted passphrase\r' },
    { waitFor: /Again:/, type: 'a prompted passphrase\r' },
  ], { env: { HOP_CONFIG_DIR: hop.configDir } });
  assert.equal(res.code, 0, res.output);
  assert.ok(!res.output.includes('a prompted passphrase'), 'the password is not shown');
  assert.match(res.output, /Next: create a workspace/);
  const { data } = await anonymous.call('login', { body: { email, password: 'a prompted passphrase' } });
  assert.equal(data.user.name, 'Grace');
});
