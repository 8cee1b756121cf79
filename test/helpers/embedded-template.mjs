// A migrated embedded database, copied into the data directory of each embedded server a test
// starts: a fresh directory would otherwise run PGlite's initdb and every migration at each start,
// most of a server's start-up. A copy starts exactly as a server restarted on its own data does.
// The template is made by the server's own first-start path (initdb, every migration) and kept
// between runs under a name that hashes everything it is made from, so it is made again exactly
// when a migration, the embedded database's code or PGlite changes. A test of the data-directory
// lock starts a server on an empty directory (`fresh`).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

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

/** What a template is made from: the migrations, the compiled database layer and PGlite's version. */
function templateKey() {
  const hash = createHash('sha256');
  const migrations = join(root, 'server/src/db/migrations');
  const dbDist = join(root, 'server/dist/db');
  for (const [dir, names] of [[migrations, readdirSync(migrations)], [dbDist, readdirSync(dbDist).filter((n) => n.endsWith('.js'))]]) {
    for (const name of names.sort()) hash.update(`${name}\0`).update(readFileSync(join(dir, name))).update('\0');
  }
  // The package's exports hide its package.json: the version is read from its folder.
  const entry = createRequire(join(root, 'server/package.json')).resolve('@electric-sql/pglite');
  const pkg = join(entry.slice(0, entry.lastIndexOf(`${sep}@electric-sql${sep}pglite${sep}`)), '@electric-sql', 'pglite', 'package.json');
  hash.update(`pglite ${JSON.parse(readFileSync(pkg, 'utf8')).version}`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The folder of a template for the current migrations under `cacheDir`, made when missing. Made
 * under a temporary name and renamed into place, so an interrupted run leaves no half-made
 * template; templates of other keys are removed.
 */
export async function cachedEmbeddedTemplate(cacheDir) {
  const key = templateKey();
  const dir = join(cacheDir, key);
  if (existsSync(join(dir, 'pglite'))) return dir;
  mkdirSync(cacheDir, { recursive: true });
  for (const name of readdirSync(cacheDir)) rmSync(join(cacheDir, name), { recursive: true, force: true });
  const making = join(cacheDir, `${key}.making-${process.pid}`);
  await makeEmbeddedTemplate(making);
  renameSync(making, dir);
  return dir;
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
