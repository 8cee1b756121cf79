/** COPY's format: `text` unless told. */
export type CopyFormat = 'text' | 'binary';

/** One row as the drivers return it. */
export type Row = Record<string, unknown>;

/** What services need of a connection: parameterised queries. Both drivers, one shape. */
export interface Queryable {
  /**
   * `prepare`: a statement of fixed text that a hot loop runs again and again (the dispatcher's
   * claim and outcome writes). On PostgreSQL it is then parsed and planned once per connection
   * and each run is one round trip; otherwise every statement with parameters is parsed, planned
   * and described before it runs, two round trips. Only for text built from constants: each
   * distinct text stays prepared on its connection.
   */
  query<T = Row>(text: string, params?: unknown[], opts?: { prepare?: boolean }): Promise<T[]>;
  /** Runs a script of several statements, without parameters (migrations). */
  exec(script: string): Promise<void>;
  /**
   * Appends rows in bulk with COPY: `rows` is in COPY's text format (tab-separated, `\N` for null,
   * one row a line), as a string or already encoded in UTF-8, or in its binary format (the click
   * log's, click-log.ts) when `format` says so.
   */
  copyIn(table: string, columns: readonly string[], rows: string | Uint8Array, format?: CopyFormat): Promise<void>;
}

export interface Database extends Queryable {
  kind: 'postgres' | 'embedded';
  /** Runs `fn` in one transaction; it commits when `fn` resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * A report's read over many rows (analytics), planned without JIT: PostgreSQL compiles a
   * statement whose estimated cost passes `jit_above_cost`, and an analytics read passes it
   * whenever many clicks wait to be rolled up, then spends more compiling than reading
   * (docs/adr/, "No JIT for the aggregation run, nor for analytics"). On PostgreSQL at
   * most two run at once, each in a transaction of its own, read again if a restart cut it.
   */
  report<T = Row>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * A short read a visitor waits for (a redirect's link lookup). On the embedded database it goes
   * ahead of every statement queued in the worker, jobs and click writes included, and waits at
   * most for the statement (or the transaction) running now; on PostgreSQL it is a plain query
   * (`prepare` as for `query`).
   */
  urgent<T = Row>(text: string, params?: unknown[], opts?: { prepare?: boolean }): Promise<T[]>;
  /**
   * Subscribes to NOTIFY on `channel`; resolves with an unsubscribe function. `onListen` runs on
   * every (re)connection: notifications sent while disconnected are lost, so callers resync there.
   */
  listen(channel: string, onMessage: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Takes the session-level advisory lock (key1, key2) on a session that holds nothing else, or
   * answers null when another session holds it. Other processes see it in `pg_locks` for as long
   * as this one lives: a crash, or the end of its connection, frees it at once.
   */
  holdLock(key1: number, key2: number): Promise<HeldLock | null>;
  close(): Promise<void>;
}

export interface HeldLock {
  /** Whether the lock is held now; takes it again if its session ended (false if it cannot). */
  ensure(): Promise<boolean>;
  release(): Promise<void>;
}
