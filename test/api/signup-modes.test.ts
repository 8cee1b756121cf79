// Who may sign up (HOP_SIGNUP, docs/api.md, Self-hosting): `closed` refuses with 403 SIGNUP_CLOSED,
// `invite` takes only a sign-up with a live invite sent to that e-mail (and the account joins the
// invite's workspace), and the first account of a server may always sign up. The API, GET
// /v1/server and the OAuth page's sign-up all follow the setting.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { client, randomAddress, unique, type Account } from '../helpers/api.js';
import { authorizeSession, authorizeUrl, CLI_CLIENT, pkce } from '../helpers/oauth.js';
import { startServer } from '../helpers/start-server.mjs';
import { scratchDir } from '../helpers/scratch-dir.mjs';

const servers: Awaited<ReturnType<typeof startServer>>[] = [];
after(async () => {
  for (const s of servers) await s.stop();
});

/**
 * A server of its own with `signup`, on an embedded database of its own even in a PostgreSQL run:
 * "the first account" needs a server without accounts.
 */
async function serverWith(signup: 'closed' | 'invite') {
  const server = await startServer({
    dataDir: scratchDir(`hop-signup-${signup}-`),
    env: { HOP_SIGNUP: signup, DATABASE_URL: '', HOP_TRUST_PROXY: '127.0.0.1' },
  });
  servers.push(server);
  return server;
}

const password = 'correct horse battery';

/** POST /v1/auth/signup from an address of its own (the per-address allowance is 30 a minute). */
const signupRaw = (baseUrl: string, body: Record<string, string>) =>
  client({}, baseUrl).raw('POST', '/v1/auth/signup', { body: { password, name: 'Someone', ...body }, headers: { 'x-forwarded-for': randomAddress() } });

async function account(baseUrl: string, email = `${unique('u')}@example.test`, extra: Record<string, string> = {}): Promise<Account> {
  const res = await signupRaw(baseUrl, { email, ...extra });
  assert.equal(res.status, 201, res.text);
  const { user, token } = (res.body as { data: { user: { id: string }; token: string } }).data;
  return { userId: user.id, email, password, token, api: client({ token }, baseUrl) };
}

const errorOf = (res: { body: unknown }) => (res.body as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
const signupState = async (baseUrl: string) => (await client({}, baseUrl).call('getServer', {})).data.signup;

/** The authorize page's sign-up view (`prompt=create`), or its sign-in view, from an address of its own. */
async function oauthSignup(baseUrl: string, create = true) {
  const url = authorizeUrl({ clientId: CLI_CLIENT, redirectUri: 'http://127.0.0.1:40000/callback', challenge: pkce().challenge }, baseUrl);
  const s = authorizeSession(create ? `${url}&prompt=create` : url, { 'x-forwarded-for': randomAddress() });
  const page = await s.get();
  assert.equal(page.status, 200, page.text);
  return { s, page };
}

test('HOP_SIGNUP=closed: the first account may sign up, then every sign-up is refused with SIGNUP_CLOSED', async () => {
  const server = await serverWith('closed');
  assert.equal(await signupState(server.url), 'open', 'a server without accounts takes its first');
  const first = await account(server.url);
  assert.equal(await signupState(server.url), 'closed');

  const refused = await signupRaw(server.url, { email: `${unique('late')}@example.test` });
  assert.equal(refused.status, 403, refused.text);
  const err = errorOf(refused);
  assert.equal(err.code, 'SIGNUP_CLOSED');
  assert.match(err.message, /sign-up is closed on this server: ask its operator/);
  assert.deepEqual(err.details, { signup: 'closed' });
  // Closed is closed, invite or not.
  assert.equal(errorOf(await signupRaw(server.url, { email: `${unique('inv')}@example.test`, inviteToken: 'hopinv_0123456789abcdef' })).code, 'SIGNUP_CLOSED');

  // Those with an account still sign in; the OAuth page offers no sign-up and its sign-up view explains.
  const login = await client({}, server.url).raw('POST', '/v1/auth/login', { body: { email: first.email, password }, headers: { 'x-forwarded-for': randomAddress() } });
  assert.equal(login.status, 200, login.text);
  const { s, page } = await oauthSignup(server.url);
  assert.match(page.text, /does not take sign-ups: ask its operator/);
  assert.doesNotMatch(page.text, /name="action" value="signup"/);
  // A form posted anyway gets the same refusal, and no account.
  const email = `${unique('form')}@example.test`;
  // (The closed view has no form, so the CSRF value comes from its cookie.)
  const posted = await s.post({ csrf: s.jar.cookies.get('hop_oauth_csrf')!, action: 'signup', name: 'Form', email, password });
  assert.equal(posted.status, 403);
  assert.match(posted.text, /<h1>Sign-up is closed<\/h1>/);
  const { page: signin } = await oauthSignup(server.url, false);
  assert.match(signin.text, /This server does not take sign-ups: ask its operator for an account/);
  assert.doesNotMatch(signin.text, /Create an account/);
  assert.equal((await client({}, server.url).raw('POST', '/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': randomAddress() } })).status, 401);
});

test('HOP_SIGNUP=invite: a sign-up needs a live invite to that e-mail, and joins its workspace with its role', async () => {
  const server = await serverWith('invite');
  // Two first accounts at once: exactly one is the first.
  const racing = await Promise.all([1, 2].map((i) => signupRaw(server.url, { email: `${unique(`first${i}`)}@example.test` })));
  assert.deepEqual(racing.map((r) => r.status).sort(), [201, 403], racing.map((r) => r.text).join('\n'));
  const ownerRes = racing.find((r) => r.status === 201)!;
  const owner = client({ token: (ownerRes.body as { data: { token: string } }).data.token }, server.url);
  assert.equal(errorOf(racing.find((r) => r.status === 403)!).code, 'SIGNUP_CLOSED');
  assert.equal(await signupState(server.url), 'invite');

  const { data: ws } = await owner.call('createWorkspace', { body: { name: 'Invited team', slug: unique('inv-') } });
  const email = `${unique('invitee')}@example.test`;
  const { data: invite } = await owner.call('createInvite', { params: { workspaceId: ws.id }, body: { email, role: 'member' } });

  const without = errorOf(await signupRaw(server.url, { email }));
  assert.equal(without.code, 'SIGNUP_CLOSED');
  assert.match(without.message, /invite only: ask a workspace admin to invite you/);
  assert.deepEqual(without.details, { signup: 'invite' });

  // Another e-mail with the invite: refused, and nothing is left behind.
  const other = `${unique('other')}@example.test`;
  const mismatch = await signupRaw(server.url, { email: other, inviteToken: invite.token });
  assert.equal(mismatch.status, 403, mismatch.text);
  assert.deepEqual(errorOf(mismatch).details, { reason: 'email_mismatch' });
  assert.equal((await client({}, server.url).raw('POST', '/v1/auth/login', { body: { email: other, password }, headers: { 'x-forwarded-for': randomAddress() } })).status, 401);

  const invitee = await account(server.url, email.toUpperCase(), { inviteToken: invite.token });
  const { data: joined } = await invitee.api.call('listWorkspaces', {});
  assert.deepEqual(joined.map((w) => [w.id, w.role]), [[ws.id, 'member']]);
  assert.deepEqual((await owner.call('listInvites', { params: { workspaceId: ws.id } })).data, [], 'the invite is spent');
  const again = await signupRaw(server.url, { email: `${unique('again')}@example.test`, inviteToken: invite.token });
  assert.equal(again.status, 404, again.text);
  assert.equal(errorOf(again).details.resource, 'invite');
});

test('HOP_SIGNUP=invite on the OAuth page: the sign-up form asks for the invite, and takes its link', async () => {
  const server = await serverWith('invite');
  const owner = await account(server.url);
  const { data: ws } = await owner.api.call('createWorkspace', { body: { name: 'Via OAuth', slug: unique('oa-') } });
  const email = `${unique('oauth')}@example.test`;
  const { data: invite } = await owner.api.call('createInvite', { params: { workspaceId: ws.id }, body: { email, role: 'viewer' } });

  const { s, page } = await oauthSignup(server.url);
  assert.match(page.text, /<label for="invite">Invite link or token<\/label>/);
  const missing = await s.post({ csrf: s.csrf, action: 'signup', name: 'OAuth', email, password });
  assert.equal(missing.status, 403);
  assert.match(missing.text, /invite only/);
  const done = await s.post({ csrf: s.csrf, action: 'signup', name: 'OAuth', email, password, invite: invite.acceptUrl });
  assert.equal(done.status, 303, done.text);
  const login = await client({}, server.url).raw('POST', '/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': randomAddress() } });
  const token = (login.body as { data: { token: string } }).data.token;
  assert.deepEqual((await client({ token }, server.url).call('listWorkspaces', {})).data.map((w) => [w.id, w.role]), [[ws.id, 'viewer']]);
});
