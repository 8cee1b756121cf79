// Lifetimes of codes and tokens, against a real database (embedded, or PostgreSQL when
// DATABASE_URL is set) with a clock the test moves: codes 10 minutes, access tokens 1 hour,
// refresh tokens 90 days (docs/api.md, Access).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../db/database.js';
import { openDatabase } from '../../db/open.js';
import { migrate } from '../../db/migrate.js';
import { newId } from '../ids.js';
import { createWorkspacesService } from '../workspaces/workspaces-service.js';
import { createPlanMode } from '../plans/plan-mode.js';
import { createOAuthClientsService, HOP_CLI_CLIENT } from './oauth-clients-service.js';
import { createOAuthService } from './oauth-service.js';
import { createOAuthGrants } from './oauth-grants.js';
import { s256 } from './pkce.js';

let db: Database;
let dataDir: string;
let now = new Date('2026-11-25T10:00:00.000Z');
const clock = { now: () => now };
const advance = (seconds: number) => (now = new Date(now.getTime() + seconds * 1000));

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hop-oauth-'));
  db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  await migrate(db);
});

after(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function setup() {
  const workspaces = createWorkspacesService({ db, newId, plans: createPlanMode('plans') });
  const oauth = createOAuthService({ db, clock, clients: createOAuthClientsService({ db, newId }), workspaces, grants: createOAuthGrants({ db, clock }) });
  const userId = newId('usr');
  await db.query(`insert into users (id, email, name, password_hash) values ($1, $2, 'T', 'x')`, [userId, `${userId}@example.test`]);
  const ws = await workspaces.create(userId, { name: 'W', slug: `w-${userId.slice(-10).toLowerCase()}` });
  const verifier = 'v'.repeat(50);
  const redirectUri = 'http://127.0.0.1:5000/callback';
  const request = { clientId: 'hop-cli', redirectUri, scopes: ['links:read' as const], codeChallenge: s256(verifier) };
  const code = async () => (await oauth.approve(request, userId, ws.id))!;
  const exchange = async (c: string) => oauth.exchangeCode(HOP_CLI_CLIENT, { code: c, redirectUri, codeVerifier: verifier });
  return { oauth, code, exchange };
}

test('a code works for 10 minutes, not after', async () => {
  const { code, exchange } = await setup();
  const fresh = await code();
  advance(9 * 60 + 59);
  await exchange(fresh);
  const old = await code();
  advance(10 * 60);
  await assert.rejects(exchange(old), (e: { error: string; description: string }) => e.error === 'invalid_grant' && /expired/.test(e.description));
});

test('an access token lasts an hour; a refresh token 90 days', async () => {
  const { oauth, code, exchange } = await setup();
  const tokens = await exchange(await code());
  assert.ok(await oauth.authenticate(tokens.access_token));
  advance(3599);
  // The CLI's own login is not bound to its default workspace: it acts in all the user's workspaces.
  assert.equal((await oauth.authenticate(tokens.access_token))?.workspaceId, undefined);
  assert.ok(tokens.workspace_id);
  advance(1);
  assert.equal(await oauth.authenticate(tokens.access_token), null, 'expired after an hour');
  const next = await oauth.refresh(HOP_CLI_CLIENT, { refreshToken: tokens.refresh_token });
  assert.ok(await oauth.authenticate(next.access_token));
  advance(90 * 24 * 3600);
  await assert.rejects(oauth.refresh(HOP_CLI_CLIENT, { refreshToken: next.refresh_token }), (e: { error: string }) => e.error === 'invalid_grant');
});
