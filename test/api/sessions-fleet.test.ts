// An ended session answers 401 at once on every process of a fleet (docs/api.md, Accounts): two
// servers on one PostgreSQL database, the session ended through one, refused by the other on the
// very next request. Each process reads the session's record on every request, so there is no
// cache that a notification would have to reach first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { client, fails, signup, succeeds } from '../helpers/api.js';
import { oauthTokens } from '../helpers/oauth.js';
import { scratchDir } from '../helpers/scratch-dir.mjs';
import { startServer } from '../helpers/start-server.mjs';

test('a session ended on one process is refused by another at once', { skip: !process.env.DATABASE_URL && 'PostgreSQL only (the embedded database is single-process)' }, async () => {
  const [a, b] = await Promise.all([
    startServer({ dataDir: scratchDir('hop-sess-a-') }),
    startServer({ dataDir: scratchDir('hop-sess-b-') }),
  ]);
  try {
    const user = await signup(a.url);
    const onB = client({ token: user.token }, b.url);
    const second = await client({}, b.url).call('login', { body: { email: user.email, password: user.password } });
    const secondOnA = client({ token: second.data.token }, a.url);
    // Both work on both processes, warmed by use.
    for (let i = 0; i < 3; i++) {
      await succeeds(onB, 'getMe', {});
      await succeeds(secondOnA, 'getMe', {});
    }
    // Logout through A; B refuses the very next request.
    await succeeds(user.api, 'logout', {});
    await fails(onB, 'getMe', {}, 'UNAUTHORIZED');
    // "Sign out everywhere" through B; A refuses at once.
    const third = await client({}, a.url).call('login', { body: { email: user.email, password: user.password } });
    await succeeds(client({ token: third.data.token }, b.url), 'deleteOtherSessions', {});
    await fails(secondOnA, 'getMe', {}, 'UNAUTHORIZED');
    await succeeds(client({ token: third.data.token }, a.url), 'getMe', {});

    // A CLI login revoked on one process is refused by the other.
    const { data: ws } = await client({ token: third.data.token }, a.url).call('createWorkspace', { body: { name: 'F', slug: `fleet-${Date.now()}` } });
    const cli = await oauthTokens({ email: user.email, password: user.password }, ws.id, { baseUrl: a.url });
    await succeeds(client({ token: cli.access_token }, b.url), 'getMe', {});
    await succeeds(client({ token: cli.access_token }, a.url), 'logout', {});
    await fails(client({ token: cli.access_token }, b.url), 'getMe', {}, 'UNAUTHORIZED');
  } finally {
    const codes = await Promise.all([a.stop(), b.stop()]);
    assert.deepEqual(codes, [0, 0]);
  }
});
