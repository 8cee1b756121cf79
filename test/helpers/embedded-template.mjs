// A migrated embedded database made once per run (test/run.mjs), copied into the data directory of
// each embedded server a test starts: a fresh directory would otherwise run PGlite's initdb and
// every migration at each start, some 9 CPU-seconds out of 14 (a start on an existing directory
// takes 5). A copy starts exactly as a server restarted on its own data does. Making the template
// runs the server's own first-start path (initdb, every migration) once a run, and a test of the
// data-directory lock starts a server on an empty directory (`fresh`).
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Initialises and migrates an embedded database in `dir` (compiled server: build first). */
export async function makeEmbeddedTemplate(dir) {
  const { openEmbedded } = await import('../../server/dist/db/embedded.js');
  const { migrate } = await import('../../server/dist/db/migrate.js');
  const db = await openEmbedded(dir);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  rmSync(join(dir, 'hop.lock'), { force: true });
}

/**
 * Copies the run's template (HOP_TEST_EMBEDDED_TEMPLATE) into `dataDir` when a server with `env`
 * would open an embedded database there that does not exist yet. Anything else is left alone: a
 * server on PostgreSQL, a directory that already holds a database, a run without a template.
 */
export function seedDataDir(dataDir, env = process.env) {
  const template = process.env.HOP_TEST_EMBEDDED_TEMPLATE;
  if (!template || env.DATABASE_URL) return;
  const db = join(dataDir, 'pglite');
  if (existsSync(db)) return;
  cpSync(join(template, 'pglite'), db, { recursive: true });
}
