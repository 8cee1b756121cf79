// The time rules of accounts (docs/api.md, Accounts), with the clock in the test's hand: a reset
// link works for 30 minutes, a session's lastUsedAt is written at most once a minute, and a
// session ends after 12 hours.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { inProcessApi, type InProcessApi } from '../helpers/in-process.js';

let api: InProcessApi;
let operatorToken: string;

before(async () => {
  api = await inProcessApi({ HOP_RATE_LIMIT_SCALE: '1000' });
  operatorToken = (await signup('operator')).token;
});
after(async () => {
  await api.close();
});

let n = 0;
async function signup(who: string) {
  const email = `${who}-${Date.now()}-${n++}@example.test`;
  const res = await api.request('POST', '/v1/auth/signup', { body: { email, password: 'correct horse battery', name: who } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { email, token: res.body.data.token as string, userId: res.body.data.user.id as string };
}

async function resetLink(userId: string): Promise<string> {
  const res = await api.request('POST', `/v1/admin/users/${userId}/password-reset`, { token: operatorToken });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return new URL(res.body.data.url).hash.replace('#token=', '');
}

const confirm = (token: string, newPassword: string) => api.request('POST', '/v1/auth/password-reset/confirm', { body: { token, newPassword } });

test('a reset link works until 30 minutes have passed, and not after', async () => {
  const user = await signup('user');
  const early = await resetLink(user.userId);
  const late = await resetLink(user.userId);
  api.clock.advance(30 * 60_000 - 1);
  // Still good: a weak password is refused on its own merits (the token is not what is wrong).
  const weak = await confirm(early, 'password1');
  assert.equal(weak.status, 400);
  assert.match(weak.body.error.message, /^newPassword: /);
  assert.equal((await confirm(early, 'within the half hour')).status, 200);
  // Using one link voids the others of the account.
  const voided = await confirm(late, 'within the half hour 2');
  assert.match(voided.body.error.message, /^token: /);

  const expiring = await resetLink(user.userId);
  api.clock.advance(30 * 60_000);
  const expired = await confirm(expiring, 'past the half hour');
  assert.equal(expired.status, 400);
  assert.match(expired.body.error.message, /^token: .*expired/);
  const login = await api.request('POST', '/v1/auth/login', { body: { email: user.email, password: 'within the half hour' } });
  assert.equal(login.status, 200);
});

test('a session\'s lastUsedAt moves at most once a minute, and the session ends after 12 hours', async () => {
  const user = await signup('busy');
  const lastUsed = async () => {
    const res = await api.request('GET', '/v1/auth/sessions', { token: user.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.find((s: { current: boolean }) => s.current).lastUsedAt as string;
  };
  const first = await lastUsed();
  api.clock.advance(59_000);
  assert.equal(await lastUsed(), first, 'not written again within the minute');
  api.clock.advance(1_000);
  const moved = await lastUsed();
  assert.equal(moved, api.clock.now().toISOString());

  // The token's expiry is in whole seconds: a second before the 12 hours it is still good.
  api.clock.advance(12 * 60 * 60_000 - 60_000 - 1_000);
  assert.equal((await api.request('GET', '/v1/me', { token: user.token })).status, 200);
  api.clock.advance(1_000);
  assert.equal((await api.request('GET', '/v1/me', { token: user.token })).status, 401);
});
