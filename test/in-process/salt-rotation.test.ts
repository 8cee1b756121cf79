// The midnight job runs as the scheduler runs it (runExclusive: in a transaction holding the job's
// lock) and ends: on the embedded database no statement outside an open transaction runs until it
// ends, so a job that wrote on the database itself instead of its transaction waited for itself,
// and every later statement of the server waited behind it (CI hung from one UTC midnight on).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../server/src/db/database.js';
import { openDatabase } from '../../server/src/db/open.js';
import { migrate } from '../../server/src/db/migrate.js';
import { createVisitorSalts, utcDay } from '../../server/src/domain/clicks/visitor-salts.js';
import { runExclusive } from '../../server/src/jobs/schedule.js';
import { saltRotationJob } from '../../server/src/jobs/salt-rotation-job.js';
import { ownDatabase } from '../helpers/own-database.js';

let dataDir: string;
let db: Database;
// A database of its own on PostgreSQL: the job deletes every salt before its day, and the run's
// servers share the run's database.
let own: Awaited<ReturnType<typeof ownDatabase>>;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hop-salts-'));
  own = await ownDatabase();
  db = await openDatabase({ databaseUrl: own.env.DATABASE_URL, dataDir });
  await migrate(db);
});

after(async () => {
  await db?.close();
  await own?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the midnight job makes the new day\'s salt, drops the old ones, and the server reads on', async () => {
  let now = new Date('2031-03-04T23:59:59.000Z');
  const salts = createVisitorSalts({ db, clock: { now: () => now } });
  const before = await salts.today();
  now = new Date('2031-03-05T00:00:01.000Z');
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the job did not end within 10 s')), 10_000);
  });
  try {
    const run = await Promise.race([runExclusive(db, saltRotationJob(salts)), stuck]);
    assert.equal(run.ran, true);
    // A statement outside any transaction runs again, and the day's salt is the one the job made.
    const after = await Promise.race([salts.today(), stuck]);
    assert.notEqual(after, before);
    const rows = await db.query<{ day: Date | string }>(`select day from visitor_salts where day >= '2031-03-01' order by day`);
    assert.deepEqual(rows.map((r) => (typeof r.day === 'string' ? r.day : utcDay(r.day))), ['2031-03-05']);
  } finally {
    clearTimeout(timer);
  }
});
