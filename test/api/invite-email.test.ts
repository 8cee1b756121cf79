// Invites by e-mail (docs/api.md, Access): with SMTP_URL set, creating an invite sends it through the
// configured server (here a local smtp-server); a failing SMTP server does not fail the invite.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { ADMIN_TOKEN, eventually, signup, team } from '../helpers/api.js';
import { freePort, startServer } from '../helpers/start-server.mjs';

interface Mail {
  from: string;
  to: string[];
  data: string;
}

const received: Mail[] = [];
let smtp: SMTPServer;
let smtpPort: number;
const dataDirs: string[] = [];
const servers: Awaited<ReturnType<typeof startServer>>[] = [];

before(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (data += d));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});

after(async () => {
  for (const s of servers) await s.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
});

async function serverWith(smtpUrl: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-smtp-'));
  dataDirs.push(dataDir);
  const server = await startServer({ dataDir, env: { SMTP_URL: smtpUrl, HOP_ADMIN_TOKEN: ADMIN_TOKEN, HOP_DISABLE: 'dispatcher,jobs' } });
  servers.push(server);
  return server;
}

test('with SMTP_URL, an invite is e-mailed to the invitee with the workspace, the role and the accept URL', { timeout: 60_000 }, async () => {
  const server = await serverWith(`smtp://127.0.0.1:${smtpPort}?from=${encodeURIComponent('Hop <invites@hop.example.test>')}`);
  const t = await team('free', server.url);
  const invitee = await signup(server.url);
  const { data: invite } = await t.api.call('createInvite', { params: { workspaceId: t.workspaceId }, body: { email: invitee.email, role: 'admin' } });
  const mail = await eventually(async () => received.find((m) => m.to.includes(invitee.email)), 10_000, 'the invite e-mail');
  assert.equal(mail.from, 'invites@hop.example.test');
  const text = mail.data.replace(/=\r?\n/g, ''); // undo quoted-printable soft line breaks
  assert.match(text, /Subject: .*invited you to Test Workspace on Hop/);
  assert.ok(text.includes(invite.acceptUrl.replace(/=/g, '=3D')) || text.includes(invite.acceptUrl), 'the accept URL is in the mail');
  assert.ok(text.includes(invite.token), 'the token is in the mail');
  assert.match(text, /as admin/);
  // The e-mailed token works.
  await invitee.api.call('acceptInvite', { params: { token: invite.token } });
});

test('an unreachable SMTP server does not fail the invite: it is created and answered with its accept URL', { timeout: 60_000 }, async () => {
  const server = await serverWith(`smtp://127.0.0.1:${await freePort()}`);
  const t = await team('free', server.url);
  const { data: invite } = await t.api.call('createInvite', { params: { workspaceId: t.workspaceId }, body: { email: 'nobody@example.test', role: 'member' } });
  assert.match(invite.acceptUrl, /\/app\/invites\/hopinv_[^/]+$/);
  const { data: list } = await t.api.call('listInvites', { params: { workspaceId: t.workspaceId } });
  assert.equal(list.length, 1);
});
