// `hop signup` follows the server's sign-up setting (GET /v1/server): closed stops it before it
// asks anything; invite-only needs --invite, and the new account joins the invite's workspace,
// which becomes the default. `hop whoami` shows a self-hosted workspace without quotas.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { client, randomAddress, unique } from '../helpers/api.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { hopSession } from './run-hop.js';

const servers: Awaited<ReturnType<typeof startServer>>[] = [];
after(async () => {
  for (const s of servers) await s.stop();
});

/** A self-hosted server with `signup` on an embedded database of its own, and its first account (the owner). */
async function serverWith(signup: 'closed' | 'invite') {
  const server = await startServer({
    dataDir: scratchDir(`hop-cli-signup-${signup}-`),
    env: { HOP_SIGNUP: signup, HOP_PLANS: '', DATABASE_URL: '', HOP_TRUST_PROXY: '127.0.0.1' },
  });
  servers.push(server);
  const res = await client({}, server.url).raw('POST', '/v1/auth/signup', {
    body: { email: `${unique('owner')}@example.test`, password: 'correct horse battery', name: 'Owner' },
    headers: { 'x-forwarded-for': randomAddress() },
  });
  assert.equal(res.status, 201, res.text);
  const owner = client({ token: (res.body as { data: { token: string } }).data.token }, server.url);
  return { server, owner };
}

const signupArgs = (email: string) => ['signup', '--email', email, '--name', 'New Person', '--password-stdin'];

test('invite-only: hop signup needs --invite, then joins the invite\'s workspace and uses it', async () => {
  const { server, owner } = await serverWith('invite');
  const { data: ws } = await owner.call('createWorkspace', { body: { name: 'CLI team', slug: unique('cli-') } });
  const email = `${unique('cli')}@example.test`;
  const { data: invite } = await owner.call('createInvite', { params: { workspaceId: ws.id }, body: { email, role: 'member' } });
  const hop = hopSession();
  const env = { HOP_API_URL: server.url };

  const missing = await hop.run(signupArgs(email), { input: 'correct horse battery\n', env });
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /--invite is required: http:\/\/127\.0\.0\.1:\d+ takes sign-ups by invite only/);

  const done = await hop.json<{ user: { email: string }; workspace: { id: string; role: string } }>(
    [...signupArgs(email), '--invite', invite.acceptUrl], { input: 'correct horse battery\n', env },
  );
  assert.equal(done.user.email, email);
  assert.deepEqual([done.workspace.id, done.workspace.role], [ws.id, 'member']);

  const who = await hop.json<{ workspace: string; usage: { plan: string; rateLimit: null } }>(['whoami'], { env });
  assert.equal(who.workspace, ws.id, 'the invite\'s workspace is the default');
  assert.equal(who.usage.plan, 'self-hosted');
  assert.equal(who.usage.rateLimit, null);
  const human = await hop.run(['whoami'], { env });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /self-hosted \(every feature, no quotas\)/);
  assert.match(human.stdout, /requests\W+unlimited/i);
});

test('closed: hop signup stops before asking anything, naming SIGNUP_CLOSED', async () => {
  const { server } = await serverWith('closed');
  const hop = hopSession();
  const res = await hop.run(signupArgs(`${unique('late')}@example.test`), { input: 'correct horse battery\n', env: { HOP_API_URL: server.url } });
  assert.equal(res.code, 1, res.stderr);
  assert.match(res.stderr, /^Error: sign-up is closed on http:\/\/127\.0\.0\.1:\d+: ask its operator to create your account, then run `hop login` \(SIGNUP_CLOSED\)\n$/);
});
