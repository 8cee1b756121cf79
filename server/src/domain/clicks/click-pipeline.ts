import type { Database, Queryable } from '../../db/database.js';
import { appendClicks, copyRows, type Visit } from './click-log.js';
import type { ClickSpool } from './click-spool.js';

export type { Visit } from './click-log.js';

// Large batches cost less per click (one COPY, one commit). 10,000 visits make about 2 MB of
// COPY text; at the usual rates a flush holds far fewer.
const MAX_BATCH = { postgres: 10_000, embedded: 2_000 } as const;
/**
 * Visits the database cannot take go to the spool file; only when that is full too does the
 * buffer keep at most this many, dropping the oldest.
 */
const MAX_BUFFERED = 200_000;
const DROP_CHUNK = 1_000;
/**
 * A batch whose write has not settled after this long is stuck, not slow: one takes well under a
 * second, and one that meets a database outage fails within a second or so. It is logged once.
 */
const STUCK_MS = 30_000;

/**
 * The click pipeline: the redirect only enqueues; this appends visits to the click log in batches
 * (one COPY each) at most every `flushEveryMs` and on shutdown. Rollups, unique visitors and link
 * counters are computed from the log by the aggregation job (click-aggregation.ts).
 *
 * A tick of the timer writes the visits buffered when it began; those enqueued meanwhile wait for
 * the next tick rather than following in a COPY of their own at once. A COPY costs PostgreSQL a
 * fixed part (the transaction, its commit, routing into the month's partitions) besides its rows:
 * writing each batch as soon as the last one ended made, under load, a COPY of the ~100 ms of
 * visits a write takes, ~29,500 instructions a click where a second's batch takes ~19,600
 * (bench/click-db-cost.mjs). An explicit flush() (and the stop) writes everything.
 */
export function createClickPipeline(deps: {
  db: Database;
  flushEveryMs: number;
  onError?: (err: unknown) => void;
  onDropped?: (n: number) => void;
  /** The spool is full: visits wait in memory (bounded) until the database is back. */
  onSpoolFull?: (bytes: number) => void;
  /** A batch's write has not settled for `stuckAfterMs`: told once per batch, with how long it has taken. */
  onStuck?: (seconds: number) => void;
  /** Default STUCK_MS (30 s). */
  stuckAfterMs?: number;
  /** Where visits go while the database is unreachable (none: they wait in memory). */
  spool?: ClickSpool;
  /** The memory bound (default 200,000 visits). */
  maxBuffered?: number;
}) {
  const { db, flushEveryMs, spool } = deps;
  const maxBuffered = deps.maxBuffered ?? MAX_BUFFERED;
  let spoolFull = false;
  let buffer: Visit[] = [];
  /** How many visits the batch being written holds (they are out of `buffer` meanwhile). */
  let inFlight = 0;
  let flushing: Promise<void> | undefined;
  /**
   * When the batch (or spool chunk) being written began (performance.now()), and whether it was
   * told stuck. Per batch, not per flush: under steady load one flush goes on writing batch after
   * batch, and a replay of a long outage's spool chunk after chunk, for as long as visits come.
   */
  let flushingSince = 0;
  let toldStuck = false;
  let timer: NodeJS.Timeout | undefined;
  const flushMs = () => (flushing ? performance.now() - flushingSince : 0);

  // The COPY alone: link.clicked and qr.scanned are produced from the log afterwards, off the
  // redirect's path (domain/events/click-event-producer.ts).
  async function writeBatch(tx: Queryable, rows: Uint8Array): Promise<void> {
    await appendClicks(tx, rows);
  }

  /**
   * Keeps the visits waiting (buffered and being written) under the cap by dropping the oldest
   * buffered ones, a thousand at a time so a long outage does not shift the array on every visit.
   * A batch being written is never dropped: it is not in `buffer` until it fails.
   */
  function trim() {
    const over = buffer.length + inFlight - maxBuffered;
    if (over <= 0) return;
    const n = Math.min(buffer.length, Math.max(over, DROP_CHUNK));
    buffer.splice(0, n);
    deps.onDropped?.(n);
  }

  let spilling: Promise<void> | undefined;
  /**
   * Past the memory bound (the database is slow or away): the buffer goes to the spool file, and
   * only when that is full are the oldest visits dropped.
   */
  function overflow() {
    if (!spool || spoolFull) return trim();
    spilling ??= (async () => {
      const waiting = buffer;
      buffer = [];
      if (!(await toSpool(waiting).catch(() => false))) {
        buffer = waiting.concat(buffer);
        trim();
      }
    })().finally(() => (spilling = undefined));
  }

  /** Moves visits to the spool; false (and a log line, once per filling) when it is full. */
  async function toSpool(visits: Visit[]): Promise<boolean> {
    if (!spool || visits.length === 0) return false;
    const ok = await spool.append(visits);
    if (!ok && !spoolFull) deps.onSpoolFull?.(spool.bytes);
    spoolFull = !ok;
    return ok;
  }

  /** Replays one chunk of the spool, exactly once (its offset commits with its clicks). */
  async function replayChunk(s: ClickSpool): Promise<void> {
    const chunk = await s.read(MAX_BATCH[db.kind]);
    if (!chunk) return;
    const rows = await copyRows(chunk.visits);
    const claimed = await db.transaction(async (tx) => {
      if (!(await s.claim(tx, chunk))) return false;
      if (chunk.visits.length) await writeBatch(tx, rows);
      return true;
    });
    if (claimed) await s.replayed(chunk);
  }

  /** Set by a flush() that finds a tick's write in progress: that write goes on until nothing waits. */
  let drain = false;

  /** Writes `limit` buffered visits (all of them once `drain` is set), and the spool's. */
  async function flushNow(limit: number): Promise<void> {
    let left = limit;
    for (;;) {
      flushingSince = performance.now();
      toldStuck = false;
      if (spool?.pending) {
        // What is buffered goes behind what is spooled, so visits are written in order.
        const waiting = buffer;
        buffer = [];
        // Visits enqueued while the file is written land in the new buffer, after these.
        if (!(await toSpool(waiting).catch(() => false))) buffer = waiting.concat(buffer);
        await replayChunk(spool);
        continue;
      }
      if (buffer.length === 0 || (left <= 0 && !drain)) return;
      const batch = buffer.splice(0, drain ? MAX_BATCH[db.kind] : Math.min(left, MAX_BATCH[db.kind]));
      left -= batch.length;
      inFlight = batch.length;
      try {
        // Built before the transaction opens, so no connection waits on it.
        const rows = await copyRows(batch);
        await db.transaction((tx) => writeBatch(tx, rows));
      } catch (err) {
        inFlight = 0;
        // Not written: to the spool file, else back at the front of the buffer, in order.
        const waiting = batch.concat(buffer);
        buffer = [];
        if (!(await toSpool(waiting).catch(() => false))) {
          buffer = waiting.concat(buffer);
          trim();
        }
        throw err;
      }
      inFlight = 0;
    }
  }

  /** Writes what is buffered now (`all`: and whatever comes while it writes, until nothing waits). */
  function write(all: boolean): Promise<void> {
    if (all) drain = true;
    if (!flushing) {
      flushing = flushNow(buffer.length).finally(() => {
        flushing = undefined;
        drain = false;
      });
    } else if (!toldStuck && flushMs() >= (deps.stuckAfterMs ?? STUCK_MS)) {
      toldStuck = true;
      deps.onStuck?.(Math.round(flushMs() / 1000));
    }
    return flushing;
  }

  /** Writes every visit waiting, those enqueued while it writes included. */
  const flush = () => write(true);

  return {
    enqueue(visit: Visit) {
      buffer.push(visit);
      if (buffer.length + inFlight > maxBuffered) overflow();
    },
    get depth() {
      return buffer.length + inFlight;
    },
    /** Bytes of visits in the spool file, waiting for the database. */
    get spooledBytes() {
      return spool?.bytes ?? 0;
    },
    /** Whether the spool refused the last visits offered to it (full). */
    get spoolFull() {
      return spoolFull;
    },
    /** Seconds the batch being written has taken so far; 0 when none is. */
    get flushSeconds() {
      return flushMs() / 1000;
    },
    start() {
      timer = setInterval(() => write(false).catch((err) => deps.onError?.(err)), flushEveryMs);
      timer.unref();
    },
    /** Stops the timer and writes what is buffered (on shutdown). */
    async stop() {
      if (timer) clearInterval(timer);
      if (flushing) await flushing.catch(() => {});
      // Spooled visits are safe on disk: only what is still in memory makes the stop unclean.
      await flush().catch((err) => {
        if (buffer.length + inFlight > 0) throw err;
      });
    },
    flush,
  };
}

export type ClickPipeline = ReturnType<typeof createClickPipeline>;
