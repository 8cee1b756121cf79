import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Database, Queryable } from './database.js';
import { StartupError } from '../startup-error.js';
import { EmbeddedDatabaseError, type Reply, type Request, type WorkerInput } from './embedded-protocol.js';

/**
 * Two processes on one PGlite directory corrupt it (docs/adr/), so the first holds a lock file with
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

// The compiled worker, also when this module runs from source (tsx, as the tests import it): Node
// 20 starts a worker without the loader hooks of its parent, so it cannot run TypeScript. The
// tests build first (test/run.mjs).
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? '../../dist/db/embedded-worker.js' : './embedded-worker.js', import.meta.url);

/**
 * PGlite in a worker thread, and the calls to it from this one. Each call waits for its answer
 * only; the worker keeps the process alive only while calls are pending, as a database in this
 * thread would.
 */
async function startWorker(dataDir: string) {
  const worker = new Worker(WORKER_URL, { workerData: { dataDir } satisfies WorkerInput });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let lastId = 0;
  let stopped: Error | undefined;

  const opened = new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: Reply) => {
      if ('id' in reply) {
        const call = pending.get(reply.id);
        pending.delete(reply.id);
        if (pending.size === 0) worker.unref();
        if (reply.ok) call?.resolve(reply.value);
        else call?.reject(new EmbeddedDatabaseError(reply.error));
      } else if ('notify' in reply) {
        for (const fn of listeners.get(reply.notify) ?? []) fn(reply.payload);
      } else if (reply.opened) resolve();
      else reject(new EmbeddedDatabaseError(reply.error));
    });
    const fail = (err: Error) => {
      stopped ??= err;
      reject(err);
      for (const call of pending.values()) call.reject(err);
      pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the embedded database's thread exited (code ${code})`)));
  });
  await opened;
  worker.unref();

  function call<T>(req: Request): Promise<T> {
    if (stopped) return Promise.reject(stopped);
    const id = ++lastId;
    if (pending.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...req, id });
    });
  }
  return { worker, call, listeners };
}

/** The embedded PostgreSQL-compatible database (PGlite), persisted under HOP_DATA_DIR. */
export async function openEmbedded(dataDir: string): Promise<Database> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const release = acquireDirLock(dir);
  let started: Awaited<ReturnType<typeof startWorker>>;
  try {
    started = await startWorker(join(dir, 'pglite'));
  } catch (err) {
    release();
    throw err;
  }
  const { worker, call, listeners } = started;
  const session = (tx?: number): Queryable => ({
    query: <T>(text: string, params: unknown[] = []) => call<T[]>({ op: 'query', text, params, tx }),
    exec: (script) => call({ op: 'exec', script, tx }),
    copyIn: (table, columns, rows, format) => call({ op: 'copyIn', table, columns, rows, format, tx }),
  });
  const base = session();
  return {
    kind: 'embedded',
    ...base,
    // PGlite is built without LLVM: nothing is ever compiled.
    report: base.query,
    urgent: <T>(text: string, params: unknown[] = []) => call<T[]>({ op: 'query', text, params, urgent: true }),
    async transaction(fn) {
      const tx = await call<number>({ op: 'begin' });
      let result;
      try {
        result = await fn(session(tx));
      } catch (err) {
        await call({ op: 'rollback', tx }).catch(() => {});
        throw err;
      }
      await call({ op: 'commit', tx });
      return result;
    },
    async listen(channel, onMessage) {
      let fns = listeners.get(channel);
      if (!fns) {
        listeners.set(channel, (fns = new Set()));
        await call({ op: 'listen', channel });
      }
      // A wrapper of its own, so the same function subscribed twice unsubscribes once per call.
      const fn = (payload: string) => onMessage(payload);
      fns.add(fn);
      return async () => {
        fns.delete(fn);
        if (fns.size === 0 && listeners.get(channel) === fns) {
          listeners.delete(channel);
          await call({ op: 'unlisten', channel });
        }
      };
    },
    async notify(channel, payload) {
      await base.query('select pg_notify($1, $2)', [channel, payload]);
    },
    // One session, as long-lived as the process: once taken, the lock is held until released
    // or until the process ends (and with it every lock of its session).
    async holdLock(key1, key2) {
      const [{ ok }] = await base.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [key1, key2]);
      if (!ok) return null;
      return {
        ensure: async () => true,
        async release() {
          await base.query('select pg_advisory_unlock($1, $2)', [key1, key2]);
        },
      };
    },
    async close() {
      try {
        await call({ op: 'close' });
      } finally {
        await worker.terminate();
        release();
      }
    },
  };
}
