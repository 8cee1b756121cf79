// docs/api.md, Access: users sign up and log in; the session JWT lasts 12 hours; GET /v1/me.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anonymous, apiKey, client, fails, idPattern, ISO_MS, rawFails, signup, succeeds, team, unique } from '../helpers/api.js';

const newEmail = () => `${unique('auth')}@example.test`;
const PASSWORD = 'correct horse battery';

test('signup answers 201 with the user, a session token and its expiry 12 hours ahead', async () => {
  const email = newEmail();
  const before = Date.now();
  const res = await succeeds(anonymous, 'signup', { body: { email, password: PASSWORD, name: 'Ada Lovelace' } });
  assert.equal(res.status, 201);
  const { user, token, expiresAt } = res.body.data;
  assert.match(user.id, idPattern('usr'));
  assert.equal(user.email, email);
  assert.equal(user.name, 'Ada Lovelace');
  assert.match(user.createdAt, ISO_MS);
  assert.deepEqual(Object.keys(user).sort(), ['createdAt', 'email', 'id', 'name']);
  assert.equal('password' in user || 'passwordHash' in user, false);
  assert.equal(token.split('.').length, 3, 'a JWT');
  const ttl = new Date(expiresAt).getTime() - before;
  assert.ok(ttl > 12 * 3600e3 - 60e3 && ttl <= 12 * 3600e3 + 60e3, `expires in 12 h, not ${ttl} ms`);
  // The JWT's own exp agrees with expiresAt.
  const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { exp: number; sub: string };
  assert.equal(payload.exp * 1000, new Date(expiresAt).getTime());
  assert.equal(payload.sub, user.id);
});

test('signup refuses an e-mail already registered, ignoring case, with 409 CONFLICT', async () => {
  const email = newEmail();
  await succeeds(anonymous, 'signup', { body: { email, password: PASSWORD, name: 'First' } });
  await fails(anonymous, 'signup', { body: { email, password: PASSWORD, name: 'Again' } }, 'CONFLICT', 409);
  await fails(anonymous, 'signup', { body: { email: email.toUpperCase(), password: PASSWORD, name: 'Shouting' } }, 'CONFLICT', 409);
});

test('signup validates its body', async () => {
  const ok = { email: newEmail(), password: PASSWORD, name: 'Valid' };
  const cases: [string, unknown, string][] = [
    ['missing email', { password: PASSWORD, name: 'x' }, 'email'],
    ['missing password', { email: newEmail(), name: 'x' }, 'password'],
    ['missing name', { email: newEmail(), password: PASSWORD }, 'name'],
    ['bad email', { ...ok, email: 'not-an-email' }, 'email'],
    ['short password', { ...ok, password: 'short' }, 'password'],
    ['over-long password', { ...ok, password: 'x'.repeat(257) }, 'password'],
    ['empty name', { ...ok, name: '   ' }, 'name'],
    ['over-long name', { ...ok, name: 'n'.repeat(101) }, 'name'],
    ['over-long email', { ...ok, email: `${'a'.repeat(250)}@example.test` }, 'email'],
    ['wrong type', { ...ok, password: 12345678 }, 'password'],
    ['unknown field', { ...ok, role: 'admin' }, ''],
  ];
  for (const [what, body, path] of cases) {
    const err = await rawFails(anonymous, 'POST', '/v1/auth/signup', { body }, 'VALIDATION_ERROR');
    const issues = err.details.issues as { path: string }[];
    if (path) assert.ok(issues.some((i) => i.path === path), `${what}: an issue at ${path} in ${JSON.stringify(issues)}`);
  }
  await rawFails(anonymous, 'POST', '/v1/auth/signup', { body: ['not', 'an', 'object'] }, 'VALIDATION_ERROR');
  await rawFails(anonymous, 'POST', '/v1/auth/signup', {}, 'VALIDATION_ERROR');
});

test('login with the right password answers the user and a fresh token, e-mail case ignored', async () => {
  const account = await signup();
  const res = await succeeds(anonymous, 'login', { body: { email: account.email.toUpperCase(), password: account.password } });
  assert.equal(res.status, 200);
  assert.equal(res.body.data.user.id, account.userId);
  assert.equal(res.body.data.user.email, account.email);
  const me = await succeeds(client({ token: res.body.data.token }), 'getMe', {});
  assert.equal(me.body.data.id, account.userId);
});

test('login refuses a wrong password and an unknown e-mail alike, with 401', async () => {
  const account = await signup();
  const wrong = await fails(anonymous, 'login', { body: { email: account.email, password: 'wrong password!' } }, 'UNAUTHORIZED', 401);
  const unknown = await fails(anonymous, 'login', { body: { email: newEmail(), password: account.password } }, 'UNAUTHORIZED', 401);
  assert.equal(wrong.message, unknown.message, 'the answer does not tell which e-mails exist');
  await rawFails(anonymous, 'POST', '/v1/auth/login', { body: { email: account.email } }, 'VALIDATION_ERROR');
  await rawFails(anonymous, 'POST', '/v1/auth/login', { body: { email: account.email, password: account.password, remember: true } }, 'VALIDATION_ERROR');
});

test('GET /v1/me answers {id, email, name, createdAt, isOperator} with a session and with an API key', async () => {
  const t = await team();
  const me = await succeeds(t.api, 'getMe', {});
  assert.deepEqual(Object.keys(me.body.data).sort(), ['createdAt', 'email', 'id', 'isOperator', 'name']);
  assert.equal(me.body.data.id, t.userId);
  assert.equal(me.body.data.email, t.email);
  const key = await apiKey(t, ['links:read']);
  const viaKey = await succeeds(key.api, 'getMe', {});
  assert.deepEqual(viaKey.body.data, me.body.data);
});

test('GET /v1/me without a credential, or with a bad one, answers 401', async () => {
  const account = await signup();
  await fails(anonymous, 'getMe', {}, 'UNAUTHORIZED', 401);
  const [h, p, s] = account.token.split('.');
  // Another subject under the same signature.
  const forged = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  forged.sub = 'usr_AAAAAAAAAAAAAAAAAAAAAA';
  const tampered = [
    `${h}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${s}`,
    `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`,
    `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`,
    'not-a-jwt',
  ];
  for (const token of tampered) await fails(client({ token }), 'getMe', {}, 'UNAUTHORIZED', 401);
  await fails(anonymous, 'getMe', { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }, 'UNAUTHORIZED', 401);
  await fails(anonymous, 'getMe', { headers: { authorization: 'Bearer' } }, 'UNAUTHORIZED', 401);
  await fails(client({ apiKey: `hop_live_${'a'.repeat(32)}` }), 'getMe', {}, 'UNAUTHORIZED', 401);
  await fails(client({ apiKey: 'nonsense' }), 'getMe', {}, 'UNAUTHORIZED', 401);
  // The real token still works.
  await succeeds(account.api, 'getMe', {});
});
