import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Database, Queryable } from './database.js';
import { StartupError } from '../startup-error.js';

/**
 * Two processes on one PGlite directory corrupt it (docs/decisions.md), so the first holds a lock file with
 * its pid; a second start fails while that pid lives, and takes over a lock left by a dead one.
 */
function acquireDirLock(dir: string): () => void {
  const file = join(dir, 'hop.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new StartupError(`the embedded database in ${dir} is in use by process ${pid}: stop that server or set HOP_DATA_DIR`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new StartupError(`cannot lock the embedded database in ${dir}: remove ${file} if no Hop server runs on it`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The embedded PostgreSQL-compatible database (PGlite), persisted under HOP_DATA_DIR. */
export async function openEmbedded(dataDir: string): Promise<Database> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const release = acquireDirLock(dir);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create({ dataDir: join(dir, 'pglite') });
    const wrap = (q: { query: typeof db.query; exec: typeof db.exec }): Queryable => ({
      async query<T>(text: string, params: unknown[] = []) {
        return (await q.query<T>(text, params)).rows;
      },
      async exec(script: string) {
        await q.exec(script);
      },
      // PGlite reads COPY's input from a blob it names /dev/blob.
      async copyIn(table, columns, rows) {
        await q.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob'`, [], { blob: new Blob([rows]) });
      },
    });
    const base = wrap(db);
    return {
      kind: 'embedded',
      query: base.query,
      transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
      exec: base.exec,
      copyIn: base.copyIn,
      async listen(channel, onMessage) {
        return db.listen(channel, onMessage);
      },
      async notify(channel, payload) {
        await db.query('select pg_notify($1, $2)', [channel, payload]);
      },
      // One session, as long-lived as the process: once taken, the lock is held until released
      // or until the process ends (and with it every lock of its session).
      async holdLock(key1, key2) {
        const [{ ok }] = (await db.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [key1, key2])).rows;
        if (!ok) return null;
        return {
          ensure: async () => true,
          async release() {
            await db.query('select pg_advisory_unlock($1, $2)', [key1, key2]);
          },
        };
      },
      async close() {
        try {
          await db.close();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
