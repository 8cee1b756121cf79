import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';
import type { CopyFormat, Database, HeldLock, Queryable } from './database.js';
import { postgresConnection } from './postgres-url.js';

/** Connections for statements outside transactions. */
const POOL_MAX = 6;
/** Transactions run at most this many at once, each on a connection of its own. */
const TRANSACTION_SESSIONS = 4;
/**
 * Reports (Database.report) take at most this many of the transaction sessions at once, so that a
 * burst of analytics reads always leaves the click writer and the jobs sessions of their own, and
 * opens no connection more. Identical reads share one statement (shared-reads.ts).
 */
const REPORTS_AT_ONCE = 2;
/** A report's transaction: no JIT (Database.report). */
const REPORT_SETTINGS_SQL = `select set_config('jit', 'off', true)`;

type Options = postgres.Options<Record<string, postgres.PostgresType>>;

/**
 * SQLSTATEs after which the statement has not run: its session was ended (57P01 by a shutdown or
 * pg_terminate_backend, 57P02 by another backend's crash; either way its transaction was rolled
 * back) or never began (57P03, the server is starting up or shutting down).
 */
const NOT_RUN = new Set(['57P01', '57P02', '57P03']);
/** An error's code: a SQLSTATE from PostgreSQL, a socket's (ECONNRESET…) or postgres.js's own. */
const codeOf = (err: unknown) => (err as { code?: string } | null)?.code ?? '';

/**
 * Has the pool fetch PostgreSQL's array types now, then never again. postgres.js (3.4.9) fetches
 * them on every new connection of a pool, reconnections included, from a promise nothing awaits:
 * when the database goes away during that query (a restart, an outage), the rejection is unhandled
 * and ends the process (seen in CI under test/fault/click-spool.test.ts; postgres.test.ts provokes
 * it). The types it fetched stay on the pool's options, shared by all its connections, so one
 * fetch at start, with the database known to be up, serves every later connection.
 */
async function fetchTypesOnce(sql: postgres.Sql): Promise<void> {
  await sql.unsafe('select 1');
  (sql.options as { fetch_types: boolean }).fetch_types = false;
}

/**
 * Runs a statement again, up to three times over half a second, when PostgreSQL says it did not
 * run. Needed because postgres.js (3.4.9, porsager/postgres #1223) keeps the 57P01 of a query
 * whose backend a shutdown terminated and hands it to the first query of the reconnected
 * connection, which never ran at all: after a database restart, visits answered 500 with an error
 * from before it (test/fault/postgres-restart.test.ts). A server starting up also answers 57P03
 * for a moment after it accepts connections. `orAlso`: other errors after which running it again
 * is safe (a read's).
 */
async function unlessNotRun<T>(run: () => Promise<T>, orAlso: (err: unknown) => boolean = () => false): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= 4 || !(NOT_RUN.has(codeOf(err)) || orAlso(err))) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt * attempt));
    }
  }
}

/**
 * COPY … FROM STDIN through postgres.js's writable stream. postgres.js (3.4.9) ends that stream
 * only when PostgreSQL completes the COPY: when PostgreSQL refuses the rows after the last one was
 * sent, the error goes to the query, whose promise has already settled (with the stream), and the
 * stream never finishes. Waiting on it alone would hold the connection and every later write
 * forever, so the refusal is also taken where postgres.js hands it over.
 */
async function copyInto(s: postgres.Sql, table: string, columns: readonly string[], rows: string | Uint8Array, format: CopyFormat = 'text') {
  const query = s.unsafe(`copy ${table} (${columns.join(', ')}) from stdin${format === 'binary' ? ' with (format binary)' : ''}`) as unknown as
    postgres.PendingQuery<postgres.Row[]> & { reject: (err: unknown) => void };
  let refuse!: (err: unknown) => void;
  const refused = new Promise<never>((_, reject) => (refuse = reject));
  refused.catch(() => {}); // observed by the race below, or not needed once the COPY is done
  const rejectQuery = query.reject;
  query.reject = (err) => {
    refuse(err);
    rejectQuery(err);
  };
  const writable = await query.writable();
  await Promise.race([pipeline(Readable.from([rows]), writable), refused]);
}

const wrap = (s: postgres.Sql): Queryable => ({
  async query<T>(text: string, params: unknown[] = [], opts?: { prepare?: boolean }) {
    return unlessNotRun(async () => (await s.unsafe(text, params as postgres.ParameterOrJSON<never>[], opts?.prepare ? { prepare: true } : {})) as unknown as T[]);
  },
  async exec(script: string) {
    await unlessNotRun(async () => s.unsafe(script));
  },
  copyIn: (table, columns, rows, format) => copyInto(s, table, columns, rows, format),
});

/** Errors after which the connection they came from is gone: socket errors and postgres.js's closes. */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', '57P01', '57P02']);
const connectionGone = (err: unknown) => GONE.has(codeOf(err));

/** What a statement of a transaction answers once the transaction's connection is gone. */
class ConnectionLostError extends Error {
  code = 'CONNECTION_CLOSED';
  constructor() {
    super('the database connection closed during the transaction; it was rolled back');
  }
}

/**
 * One connection that runs one transaction at a time, knowing whether the session it began in
 * still exists.
 *
 * Why not `sql.begin`: when PostgreSQL restarts under load, postgres.js (3.4.9, porsager/postgres
 * #1154, #1208) still sends a transaction's next statement or its ROLLBACK down the connection
 * that just closed, and that write throws from a setImmediate with a null socket: an uncaught
 * TypeError that killed the server (test/fault/postgres-restart.test.ts). Worse, if the pool had
 * already reconnected that connection for another query, the rest of the transaction would run
 * outside any transaction, in the new session. Here every statement of a transaction is a plain
 * query on a pool of one connection, which reconnects instead of crashing, and `onclose` tells
 * which transactions lost their session: those refuse any further statement and skip the ROLLBACK
 * (PostgreSQL rolled them back when the session ended).
 */
function createTransactionSession(url: string, options: Options) {
  let closures = 0;
  /** Told when the connection closes: a COPY in flight then never settles on its own. */
  const onClose = new Set<() => void>();
  // Never recycled (postgres.js ends connections after 30-60 min by default): between two
  // statements of a transaction the connection is idle, and ending it then would fail the transaction.
  const sql = postgres(url, { ...options, max: 1, max_lifetime: null, onclose: () => {
    closures++;
    for (const fn of onClose) fn();
  } });
  /** A COPY that fails when the session closes under it, instead of waiting forever. */
  async function copyUnlessClosed(table: string, columns: readonly string[], rows: string | Uint8Array, format?: CopyFormat) {
    let lost!: () => void;
    const closed = new Promise<never>((_, reject) => (lost = () => reject(new ConnectionLostError())));
    onClose.add(lost);
    try {
      await Promise.race([copyInto(sql, table, columns, rows, format), closed]);
    } finally {
      onClose.delete(lost);
    }
  }
  return {
    async run<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      // Read before BEGIN: a close in between can only make a live session look lost (the
      // transaction fails and is retried by its caller), never the reverse.
      let session = closures;
      const alive = () => closures === session;
      let failed: unknown;
      const tx: Queryable = {
        async query<R>(text: string, params: unknown[] = []) {
          if (!alive()) throw new ConnectionLostError();
          try {
            return (await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[])) as unknown as R[];
          } catch (err) {
            failed ??= err;
            throw err;
          }
        },
        async exec(script: string) {
          if (!alive()) throw new ConnectionLostError();
          try {
            await sql.unsafe(script);
          } catch (err) {
            failed ??= err;
            throw err;
          }
        },
        async copyIn(table, columns, rows, format) {
          if (!alive()) throw new ConnectionLostError();
          try {
            await copyUnlessClosed(table, columns, rows, format);
          } catch (err) {
            failed ??= err;
            throw err;
          }
        },
      };
      // BEGIN is the first statement on a reconnected connection, the one a stale 57P01 lands on.
      // It is also sent again when the connection turns out gone (reset while idle, its close not
      // yet seen): a BEGIN changes nothing, and one whose session ended began nothing.
      await unlessNotRun(() => {
        session = closures;
        return sql.unsafe('begin');
      }, connectionGone);
      let result: T;
      try {
        result = await fn(tx);
        // A statement that failed aborted the transaction even if `fn` caught its error, and
        // COMMIT would then quietly roll back: report the failure, as sql.begin did.
        if (failed) throw failed;
        if (!alive()) throw new ConnectionLostError();
      } catch (err) {
        // A statement that failed because the connection went (a reset, a close) may be told
        // before postgres.js calls onclose: a ROLLBACK then would wait for a new connection, for
        // as long as the database is away, and hold this session and the caller (the click
        // writer) that long. PostgreSQL rolled the transaction back when the session ended.
        if (alive() && !connectionGone(err)) await sql.unsafe('rollback').catch(() => {});
        throw err;
      }
      if (!alive()) throw new ConnectionLostError();
      await sql.unsafe('commit');
      return result;
    },
    /** Opens the session's connection and fetches the types, at start (fetchTypesOnce). */
    ready: () => fetchTypesOnce(sql),
    end: () => sql.end({ timeout: 5 }),
  };
}

/**
 * A session-level advisory lock on a connection of its own (a pool of one, never recycled), so
 * that no other statement can end its session. When that connection closes, `onclose` says the
 * lock is gone; `ensure` takes it again on a new one.
 */
async function holdAdvisoryLock(url: string, options: Options, key1: number, key2: number): Promise<HeldLock | null> {
  let closures = 0;
  let held = false;
  // Its statements take and return no arrays: no type fetch (fetchTypesOnce) on its connections.
  const sql = postgres(url, { ...options, max: 1, max_lifetime: null, fetch_types: false, onclose: () => {
    closures++;
    held = false;
  } });
  const take = async () => {
    const session = closures;
    const [{ ok }] = await sql.unsafe<{ ok: boolean }[]>('select pg_try_advisory_lock($1, $2) as ok', [key1, key2]);
    // Taken on a session that has since closed: not held.
    if (closures === session) held = ok;
    return ok;
  };
  if (!(await take().catch(async (err) => {
    await sql.end({ timeout: 1 });
    throw err;
  }))) {
    await sql.end({ timeout: 1 });
    return null;
  }
  return {
    async ensure() {
      if (held) return true;
      try {
        await take();
      } catch {
        /* the database is unreachable: not held */
      }
      return held;
    },
    async release() {
      if (held) await sql.unsafe('select pg_advisory_unlock($1, $2)', [key1, key2]).catch(() => {});
      held = false;
      await sql.end({ timeout: 5 });
    },
  };
}

/** Hands out `items` one caller at a time each, the others waiting their turn in order. */
function turns<I>(items: I[]) {
  const idle = [...items];
  const waiting: ((item: I) => void)[] = [];
  return async <T>(fn: (item: I) => Promise<T>): Promise<T> => {
    const item = idle.pop() ?? await new Promise<I>((resolve) => waiting.push(resolve));
    try {
      return await fn(item);
    } finally {
      const next = waiting.shift();
      if (next) next(item);
      else idle.push(item);
    }
  };
}

/** PostgreSQL through postgres.js, when DATABASE_URL is set. */
/**
 * `poolMax` and `transactionSessions` default to the server's (POOL_MAX, TRANSACTION_SESSIONS); a
 * part that needs fewer connections, such as the dispatcher's thread (no transactions at all),
 * opens fewer: every process of a fleet counts against the database's max_connections.
 */
export async function openPostgres(databaseUrl: string, opts: { poolMax?: number; transactionSessions?: number } = {}): Promise<Database> {
  const { url, path } = postgresConnection(databaseUrl);
  const options: Options = {
    ...(path ? { path } : {}),
    onnotice: () => {},
    // int8 (counts, sums) as numbers, as PGlite returns them.
    types: { bigint: { to: 20, from: [20], parse: (v: string) => Number(v), serialize: (v: number) => String(v) } },
    connection: { application_name: 'hop-server' },
    // postgres.js waits before reconnecting, 3^n / 100 s after n failed connections (shared by the
    // pool), up to 20 s: after an outage of a few seconds, every query (and /readyz) then waited
    // up to 20 s for a database that was back long before. Capped at 1 s, a server is ready
    // within a second of its database, and a query during an outage fails within a second.
    backoff: (retries: number) => (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, 1),
  };
  const sql = postgres(url, { ...options, max: opts.poolMax ?? POOL_MAX });
  const sessions = Array.from({ length: opts.transactionSessions ?? TRANSACTION_SESSIONS }, () => createTransactionSession(url, options));
  const inSession = turns(sessions);
  const asReport = turns(Array.from({ length: REPORTS_AT_ONCE }, (_, i) => i));
  await Promise.all([fetchTypesOnce(sql), ...sessions.map((s) => s.ready())]);
  const base = wrap(sql);
  const transaction = <T>(fn: (tx: Queryable) => Promise<T>) => {
    if (sessions.length === 0) throw new Error('this database handle was opened without transaction sessions');
    return inSession((session) => session.run(fn));
  };
  return {
    kind: 'postgres',
    query: base.query,
    // Statements outside transactions share the pool, in no queue of Hop's own.
    urgent: base.query,
    transaction,
    // A report changes nothing: one whose connection a restart cut is read again, as one that
    // never ran is.
    report: <T>(text: string, params: unknown[] = []) => asReport(() => unlessNotRun(() => transaction(async (tx) => {
      await tx.query(REPORT_SETTINGS_SQL);
      return tx.query<T>(text, params);
    }), connectionGone)),
    exec: base.exec,
    copyIn: base.copyIn,
    async listen(channel, onMessage, onListen) {
      const sub = await sql.listen(channel, onMessage, onListen);
      return async () => sub.unlisten();
    },
    async notify(channel, payload) {
      await sql.notify(channel, payload);
    },
    holdLock: (key1, key2) => holdAdvisoryLock(url, options, key1, key2),
    async close() {
      await Promise.all([sql.end({ timeout: 5 }), ...sessions.map((s) => s.end())]);
    },
  };
}
