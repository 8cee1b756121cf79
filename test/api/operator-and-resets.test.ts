// The operator and password resets (docs/api.md, Accounts), on a server of the test's own with an
// empty database (so its first account is known) and a loopback SMTP receiver for the mailed links.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { ADMIN_TOKEN, client, eventually, fails, randomAddress, signup, succeeds, type Account } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';

const received: { to: string[]; text: string }[] = [];
let smtp: SMTPServer;
let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;
let operator: Account;
let user: Account;

before(async () => {
  smtp = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (data += d));
      stream.on('end', () => {
        // Undo quoted-printable soft line breaks and the escaped '='.
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), text: data.replace(/=\r?\n/g, '').replace(/=3D/g, '=') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  dataDir = mkdtempSync(join(tmpdir(), 'hop-operator-'));
  // The embedded database of a fresh directory: no account yet, whichever database the run uses.
  server = await startServer({
    dataDir,
    env: { DATABASE_URL: '', HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_DISABLE: 'dispatcher,jobs', HOP_TRUST_PROXY: '127.0.0.1',
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` },
  });
  operator = await signup(server.url);
  user = await signup(server.url);
});

after(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

/** Operator requests are limited per address: each from one of its own. */
const from = () => ({ 'x-forwarded-for': randomAddress() });

const tokenOf = (url: string) => new URL(url).hash.replace(/^#token=/, '');

test('the first account is the operator; /v1/me says so', async () => {
  assert.equal((await succeeds(operator.api, 'getMe', {})).body.data.isOperator, true);
  assert.equal((await succeeds(user.api, 'getMe', {})).body.data.isOperator, false);
});

test('the operator changes any workspace\'s plan without the admin token; others may not', async () => {
  const { data: ws } = await user.api.call('createWorkspace', { body: { name: 'User WS', slug: `user-ws-${Date.now()}` } });
  const changed = await succeeds(operator.api, 'adminUpdateWorkspace', { params: { workspaceId: ws.id }, body: { plan: 'pro' }, headers: from() });
  assert.equal(changed.body.data.plan, 'pro');
  assert.equal((await user.api.call('getWorkspace', { params: { workspaceId: ws.id } })).data.plan, 'pro');
  // The workspace's own owner is not the operator.
  await fails(user.api, 'adminUpdateWorkspace', { params: { workspaceId: ws.id }, body: { plan: 'business' }, headers: from() }, 'FORBIDDEN');
  // The admin token still works, alone.
  const admin = client({}, server.url);
  await succeeds(admin, 'adminUpdateWorkspace', { params: { workspaceId: ws.id }, body: { plan: 'starter' }, headers: { 'x-admin-token': ADMIN_TOKEN, ...from() } });
  // An API key of the operator is no operator credential.
  const { data: opWs } = await operator.api.call('createWorkspace', { body: { name: 'Op WS', slug: `op-ws-${Date.now()}` } });
  const { data: key } = await operator.api.call('createApiKey', { params: { workspaceId: opWs.id }, body: { name: 'k', scopes: ['workspace:write'] } });
  await fails(client({ apiKey: key.key }, server.url), 'adminUpdateWorkspace', { params: { workspaceId: ws.id }, body: { plan: 'pro' }, headers: from() }, 'FORBIDDEN');
});

test('the operator gets a one-time reset link for a user; it sets a new password and ends every session', async () => {
  const victim = await signup(server.url);
  await fails(user.api, 'adminPasswordReset', { params: { userId: victim.userId }, headers: from() }, 'FORBIDDEN');
  const link = await succeeds(operator.api, 'adminPasswordReset', { params: { userId: victim.userId }, headers: from() });
  assert.equal(link.body.data.userId, victim.userId);
  assert.match(link.body.data.url, /\/app\/reset-password#token=hoppr_/);
  const token = tokenOf(link.body.data.url);
  const anon = client({}, server.url);
  // A weak password is refused without using the link up.
  const weak = await fails(anon, 'confirmPasswordReset', { body: { token, newPassword: 'password1' } }, 'VALIDATION_ERROR');
  assert.match(weak.message, /^newPassword: .*common/);
  const done = await succeeds(anon, 'confirmPasswordReset', { body: { token, newPassword: 'set by a reset link' } });
  assert.equal(done.body.data.endedSessions, 1);
  await fails(victim.api, 'getMe', {}, 'UNAUTHORIZED');
  await anon.call('login', { body: { email: victim.email, password: 'set by a reset link' } });
  // Single use.
  const again = await fails(anon, 'confirmPasswordReset', { body: { token, newPassword: 'another fine phrase' } }, 'VALIDATION_ERROR');
  assert.match(again.message, /^token: .*already used/);
  // The admin token gets links too; an unknown user is 404.
  const admin = client({}, server.url);
  await succeeds(admin, 'adminPasswordReset', { params: { userId: victim.userId }, headers: { 'x-admin-token': ADMIN_TOKEN, ...from() } });
  await fails(operator.api, 'adminPasswordReset', { params: { userId: 'usr_0000000000000000zzzz' }, headers: from() }, 'NOT_FOUND');
});

test('a reset link is mailed to an account\'s address; an unknown address answers the same 202 and mails nothing', async () => {
  const a = await signup(server.url);
  const anon = client({}, server.url);
  const unknown = `nobody-${Date.now()}@example.test`;
  const res = await succeeds(anon, 'requestPasswordReset', { body: { email: unknown } });
  assert.deepEqual(res.body.data, { accepted: true });
  const asked = await succeeds(anon, 'requestPasswordReset', { body: { email: a.email.toUpperCase() } });
  assert.equal(asked.status, 202);
  const mail = await eventually(async () => received.find((m) => m.to.includes(a.email)), 10_000, 'the reset e-mail');
  assert.match(mail.text, /Subject: Reset your Hop password/);
  const token = /#token=(hoppr_[0-9A-Za-z]+)/.exec(mail.text)?.[1];
  assert.ok(token, mail.text);
  // A second request within the minute mails nothing more (no flooding a mailbox from the form).
  await succeeds(anon, 'requestPasswordReset', { body: { email: a.email } });
  const other = await signup(server.url);
  await succeeds(anon, 'requestPasswordReset', { body: { email: other.email } });
  await eventually(async () => received.find((m) => m.to.includes(other.email)), 10_000, 'the other reset e-mail');
  assert.equal(received.filter((m) => m.to.includes(a.email)).length, 1);
  assert.equal(received.filter((m) => m.to.includes(unknown)).length, 0);

  await succeeds(anon, 'confirmPasswordReset', { body: { token, newPassword: 'mailed link phrase' } });
  await fails(a.api, 'getMe', {}, 'UNAUTHORIZED');
  await anon.call('login', { body: { email: a.email, password: 'mailed link phrase' } });
  await fails(anon, 'confirmPasswordReset', { body: { token: 'hoppr_made-up', newPassword: 'mailed link phrase 2' } }, 'VALIDATION_ERROR');
});
