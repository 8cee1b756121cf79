// The password windows against a real database (embedded, or PostgreSQL when DATABASE_URL is set)
// with a clock the test moves: account lockouts last 15 minutes,
// link lockouts reach an hour after 30 failures; and slow hashes never exceed their lane's bound.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../db/database.js';
import { openDatabase } from '../../db/open.js';
import { migrate } from '../../db/migrate.js';
import { HopError } from '../errors.js';
import { newId } from '../ids.js';
import { createPasswordAttempts } from '../links/password-attempts.js';
import { createEventOutbox } from '../events/event-outbox.js';
import { createPlanMode } from '../plans/plan-mode.js';
import { LinkPasswordLockedEventSchema } from '@hop/shared';
import { HASH_CONCURRENCY, hashPassword, hashStats, verifyPassword } from '../passwords.js';
import { createPasswordChecks } from './password-checks.js';

let db: Database;
let dataDir: string;
let now = new Date('2026-11-26T10:00:00.000Z');
const clock = { now: () => now };
const advance = (seconds: number) => (now = new Date(now.getTime() + seconds * 1000));
const secret = randomBytes(16).toString('hex');

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hop-pwchecks-'));
  db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  await migrate(db);
});

after(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const refusal = (err: unknown) => (err instanceof HopError && err.code === 'RATE_LIMIT_EXCEEDED' ? Number(err.details.retryAfter) : -1);

/** A user, a workspace and a link of theirs, as rows: what link lockouts and their events refer to. */
async function newLinkRow() {
  const userId = newId('usr');
  const wsId = newId('ws');
  const linkId = newId('lnk');
  await db.query(`insert into users (id, email, name, password_hash) values ($1, $2, 'T', 'x')`, [userId, `${userId}@example.test`]);
  await db.query(`insert into workspaces (id, name, slug) values ($1, 'W', $2)`, [wsId, `w-${wsId.slice(-10).toLowerCase()}`]);
  await db.query(`insert into links (id, workspace_id, domain, slug, url, created_by) values ($1, $2, 'localhost', $3, 'https://example.com/', $4)`,
    [linkId, wsId, linkId.slice(-12), userId]);
  return { wsId, linkId };
}

test('10 wrong passwords lock an account for 15 minutes, the right one included; then it opens again', async () => {
  const checks = createPasswordChecks({ db, clock, secret });
  const email = `${newId('usr')}@example.test`;
  for (let i = 0; i < 10; i++) {
    assert.equal(await checks.check(email, async () => false), false);
    advance(30);
  }
  let ran = false;
  const right = async () => (ran = true);
  await assert.rejects(checks.check(email.toUpperCase(), right), (err) => refusal(err) === 15 * 60 - 30);
  assert.equal(ran, false, 'the hash is not even checked while locked');
  advance(15 * 60 - 31);
  await assert.rejects(checks.check(email, right), (err) => refusal(err) === 1);
  advance(1);
  assert.equal(await checks.check(email, right), true);
});

test('link lockouts: 5 failures in a minute lock for a minute; 30 in an hour for an hour', async () => {
  const attempts = createPasswordAttempts({ db, clock });
  const { wsId, linkId } = await newLinkRow();
  const visitor = 'visitor-hash';
  for (let round = 0; round < 6; round++) {
    for (let i = 0; i < 5; i++) {
      const r = await attempts.reserve(linkId, visitor);
      assert.ok('attempt' in r, `round ${round} attempt ${i}`);
      advance(1);
    }
    const locked = await attempts.reserve(linkId, visitor);
    assert.ok('lockedFor' in locked);
    if (round < 5) {
      assert.equal(locked.lockedFor, 60 - 1);
      advance(61);
    } else {
      assert.ok(locked.lockedFor > 59 * 60, `30 failures in an hour: ${locked.lockedFor} s`);
    }
  }
});

test('the cap of a link: wrong passwords from many visitors close it to everyone for 10 minutes, then an hour; the owner hears once per lock', async () => {
  const attempts = createPasswordAttempts({ db, clock, outbox: createEventOutbox({ newId, plans: createPlanMode('plans') }) });
  const { wsId, linkId } = await newLinkRow();
  const link = { id: linkId, workspaceId: wsId, slug: linkId.slice(-12), domain: 'localhost' };
  // Each emitted event as delivered, checked against the shared contract's schema.
  const announced = async () => (await db.query<{ payload: unknown }>(
    `select payload from events where workspace_id = $1 and type = 'link.password_locked' order by seq`, [wsId])).map((r) => {
    const parsed = LinkPasswordLockedEventSchema.parse(r.payload);
    assert.deepEqual(parsed, r.payload, 'no field the schema does not declare');
    assert.deepEqual(parsed.data.link, { id: link.id, slug: link.slug, domain: link.domain });
    return parsed.data;
  });
  const expected = [600 - 1, 600 - 1, 3600 - 1];
  for (const [round, lock] of expected.entries()) {
    for (let i = 0; i < 50; i++) {
      const r = await attempts.reserve(linkId, `visitor ${round}.${i}`);
      assert.ok('attempt' in r, `round ${round} attempt ${i}`);
      await attempts.recordFailure(link);
      advance(1);
    }
    const fresh = await attempts.reserve(linkId, `a visitor with no failure ${round}`);
    assert.deepEqual(fresh, { lockedFor: lock }, `round ${round}`);
    assert.equal(await attempts.lockedFor(linkId, 'anyone'), lock);
    const events = await announced();
    assert.equal(events.length, round + 1, 'one event per lock');
    assert.equal(Date.parse(events[round].lockedUntil), now.getTime() + lock * 1000, 'until the lock ends');
    advance(lock + 1);
  }
  assert.deepEqual((await announced()).map((e) => e.failures), [50, 50, 150]);
  assert.ok('attempt' in (await attempts.reserve(linkId, 'after the hour')), 'open again after the lock');
});

test('slow hashes never run more than their lane allows, whatever the burst', async () => {
  const stored = await hashPassword('a password', 'links');
  hashStats.peak.links = 0;
  hashStats.peak.accounts = 0;
  await Promise.all([
    ...Array.from({ length: 20 }, () => verifyPassword('wrong', stored, 'links')),
    ...Array.from({ length: 10 }, () => verifyPassword('wrong', stored, 'accounts')),
  ]);
  assert.equal(hashStats.peak.links, HASH_CONCURRENCY.links);
  assert.equal(hashStats.peak.accounts, HASH_CONCURRENCY.accounts);
  assert.deepEqual(hashStats.running, { accounts: 0, links: 0 });
});
