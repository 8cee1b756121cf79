import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

// The .sql files stay in src/ and are read from there by both the compiled and the tsx-run code.
const MIGRATIONS_DIR = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
// Any constant: every process that migrates takes this lock, so two starting at once take turns.
const MIGRATION_LOCK = 72_410_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f.slice(4, -4), sql: readFileSync(dir + f, 'utf8') }));
}

/** Applies, in order, every migration not yet recorded; each in its own transaction. */
export async function migrate(db: Database, migrations = loadMigrations()): Promise<number[]> {
  const applied: number[] = [];
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`create table if not exists schema_migrations (
      version integer primary key, name text not null, applied_at timestamptz not null default now())`);
    const done = new Set((await tx.query<{ version: number }>('select version from schema_migrations')).map((r) => r.version));
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
  });
  return applied;
}
