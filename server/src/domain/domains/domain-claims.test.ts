// Unverified claims lapse after 7 days (a cut at query time): the domains service on a real
// database (embedded, or PostgreSQL when DATABASE_URL is set) with a clock the test moves.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../db/open.js';
import { migrate } from '../../db/migrate.js';
import type { Database } from '../../db/database.js';
import { newId } from '../ids.js';
import { createDomainsService } from './domains-service.js';

const dataDir = mkdtempSync(join(tmpdir(), 'hop-claims-'));
let db: Database;
before(async () => {
  db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  await migrate(db);
});
after(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('an unverified claim lapses after 7 days; a verified one never does', async () => {
  let now = new Date();
  const lookups: Record<string, string[]> = {};
  const domains = createDomainsService({ db, clock: { now: () => now }, newId, lookupTxt: async (n) => lookups[n] ?? [], reservedHosts: [] });
  const ws = [newId('ws'), newId('ws')];
  for (const id of ws) await db.query('insert into workspaces (id, name, slug) values ($1, $1, $1)', [id]);
  const [name, kept] = [`${newId('x').toLowerCase()}.example.test`, `${newId('y').toLowerCase()}.example.test`];
  const claim = await domains.add(ws[0], name);
  const verified = await domains.add(ws[0], kept);
  lookups[verified.verification.name] = [verified.verification.value];
  await domains.verify(ws[0], verified.id);

  now = new Date(now.getTime() + 6 * 86_400_000);
  assert.deepEqual((await domains.list(ws[0], { limit: 100 })).data.map((d) => d.name).sort(), [name, kept].sort(), 'six days on: both');
  now = new Date(now.getTime() + 2 * 86_400_000);
  assert.deepEqual((await domains.list(ws[0], { limit: 100 })).data.map((d) => d.name), [kept], 'eight days on: the claim has lapsed');
  await assert.rejects(domains.verify(ws[0], claim.id), { code: 'NOT_FOUND' });
  // The name can be claimed afresh, by anyone, the lapsed claimant included (with a new value).
  const fresh = await domains.add(ws[0], name);
  assert.notEqual(fresh.verification.value, claim.verification.value);
  assert.equal((await domains.add(ws[1], name)).name, name);
  await db.query('delete from workspaces where id = any($1::text[])', [ws]);
});
