import type { Database, Queryable } from '../../db/database.js';
import { appendClicks, copyRows, type Visit } from './click-log.js';

export type { Visit } from './click-log.js';

/** A visit once written (the same record). */
export type RecordedClick = Visit;

// Large batches cost less per click (one COPY, one commit). 10,000 visits make about 2 MB of
// COPY text; at the usual rates a flush holds far fewer.
const MAX_BATCH = { postgres: 10_000, embedded: 2_000 } as const;
/** If the database stays down, the buffer keeps at most this many visits, dropping the oldest. */
const MAX_BUFFERED = 200_000;
const DROP_CHUNK = 1_000;

/**
 * The click pipeline: the redirect only enqueues; this appends visits to the click log in batches
 * (one COPY each) at most every `flushEveryMs` and on shutdown. Rollups, unique visitors and link
 * counters are computed from the log by the aggregation job (click-aggregation.ts).
 */
export function createClickPipeline(deps: {
  db: Database;
  flushEveryMs: number;
  onError?: (err: unknown) => void;
  onDropped?: (n: number) => void;
  /** Writes link.clicked / qr.scanned events in the batch's own transaction. */
  emitEvents?: (tx: Queryable, clicks: RecordedClick[]) => Promise<void>;
}) {
  const { db, flushEveryMs } = deps;
  let buffer: Visit[] = [];
  /** How many visits the batch being written holds (they are out of `buffer` meanwhile). */
  let inFlight = 0;
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const listeners: ((clicks: RecordedClick[]) => Promise<void> | void)[] = [];

  async function writeBatch(tx: Queryable, clicks: Visit[], rows: string): Promise<RecordedClick[]> {
    await appendClicks(tx, rows);
    await deps.emitEvents?.(tx, clicks);
    return clicks;
  }

  /**
   * Keeps the visits waiting (buffered and being written) under the cap by dropping the oldest
   * buffered ones, a thousand at a time so a long outage does not shift the array on every visit.
   * A batch being written is never dropped: it is not in `buffer` until it fails.
   */
  function trim() {
    const over = buffer.length + inFlight - MAX_BUFFERED;
    if (over <= 0) return;
    const n = Math.min(buffer.length, Math.max(over, DROP_CHUNK));
    buffer.splice(0, n);
    deps.onDropped?.(n);
  }

  async function flushNow(): Promise<void> {
    while (buffer.length > 0) {
      const batch = buffer.splice(0, MAX_BATCH[db.kind]);
      inFlight = batch.length;
      let recorded: RecordedClick[];
      try {
        // Built before the transaction opens, so no connection waits on it.
        const rows = await copyRows(batch);
        recorded = await db.transaction((tx) => writeBatch(tx, batch, rows));
      } catch (err) {
        // Not written: back at the front, in order, for the next flush.
        inFlight = 0;
        buffer = batch.concat(buffer);
        trim();
        throw err;
      }
      inFlight = 0;
      for (const listener of listeners) await listener(recorded);
    }
  }

  function flush(): Promise<void> {
    flushing ??= flushNow().finally(() => (flushing = undefined));
    return flushing;
  }

  return {
    enqueue(visit: Visit) {
      buffer.push(visit);
      if (buffer.length + inFlight > MAX_BUFFERED) trim();
    },
    get depth() {
      return buffer.length + inFlight;
    },
    /** Called after each batch is written: `link.clicked` and `qr.scanned` events hang here. */
    onRecorded(listener: (clicks: RecordedClick[]) => Promise<void> | void) {
      listeners.push(listener);
    },
    start() {
      timer = setInterval(() => flush().catch((err) => deps.onError?.(err)), flushEveryMs);
      timer.unref();
    },
    /** Stops the timer and writes what is buffered (on shutdown). */
    async stop() {
      if (timer) clearInterval(timer);
      if (flushing) await flushing.catch(() => {});
      await flush();
    },
    flush,
  };
}

export type ClickPipeline = ReturnType<typeof createClickPipeline>;
