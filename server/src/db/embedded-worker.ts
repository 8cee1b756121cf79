// The embedded database's thread: PGlite runs here, so its WebAssembly never holds the thread that
// answers redirects. One PGlite is one PostgreSQL session; its own locks keep statements in order,
// and make every statement outside a transaction wait while one is open.
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { errorFields, type Call, type Reply, type Request, type WorkerInput } from './embedded-protocol.js';
import { lowerThreadPriority } from '../thread-priority.js';

const port = parentPort!;
const post = (reply: Reply) => port.postMessage(reply);

interface OpenTransaction {
  tx: Transaction;
  /** Ends the transaction: commits on true, rolls back on false. */
  end(commit: boolean): void;
  /** Settles once the transaction has ended: rejects when its COMMIT failed. */
  ended: Promise<void>;
}

let db: PGlite;
const transactions = new Map<number, OpenTransaction>();
let lastTransaction = 0;
const listening = new Map<string, () => Promise<void>>();

/** Opens a transaction and keeps it open until `commit` or `rollback` names it. */
function begin(): Promise<number> {
  const id = ++lastTransaction;
  return new Promise((began, failed) => {
    let end!: (commit: boolean) => void;
    const decided = new Promise<boolean>((r) => (end = r));
    const ended = db.transaction(async (tx) => {
      transactions.set(id, { tx, end, ended });
      began(id);
      if (!(await decided)) await tx.rollback();
    });
    // Before the callback runs, a failure is BEGIN's; after, `commit` reports it.
    ended.catch(failed).finally(() => transactions.delete(id));
  });
}

/** The session a statement runs on: its transaction's, or PGlite's own (which waits for open ones). */
function on(tx: number | undefined): Pick<PGlite, 'query' | 'exec'> {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error('the transaction has already ended');
  return open.tx;
}

async function handle(req: Request): Promise<unknown> {
  switch (req.op) {
    case 'query':
      return (await on(req.tx).query(req.text, req.params)).rows;
    case 'exec':
      await on(req.tx).exec(req.script);
      return undefined;
    case 'copyIn':
      // PGlite reads COPY's input from a blob it names /dev/blob. Bytes that crossed the port own
      // their ArrayBuffer (a structured clone is never shared), hence the narrower type.
      await on(req.tx).query(`copy ${req.table} (${req.columns.join(', ')}) from '/dev/blob'${req.format === 'binary' ? ' with (format binary)' : ''}`, [], { blob: new Blob([req.rows as string | Uint8Array<ArrayBuffer>]) });
      return undefined;
    case 'begin':
      return begin();
    case 'commit':
    case 'rollback': {
      const open = transactions.get(req.tx);
      if (!open) throw new Error('the transaction has already ended');
      open.end(req.op === 'commit');
      await open.ended;
      return undefined;
    }
    case 'listen':
      if (!listening.has(req.channel)) {
        listening.set(req.channel, await db.listen(req.channel, (payload) => post({ notify: req.channel, payload })));
      }
      return undefined;
    case 'unlisten':
      await listening.get(req.channel)?.();
      listening.delete(req.channel);
      return undefined;
    case 'close':
      await db.close();
      return undefined;
  }
}

function run(call: Call): Promise<unknown> {
  return handle(call).then(
    (value) => {
      post({ id: call.id, ok: true, value });
      return value;
    },
    (err) => {
      post({ id: call.id, ok: false, error: errorFields(err) });
      return undefined;
    },
  );
}

/**
 * The order statements reach PGlite in. PGlite runs one at a time, in the order it is handed them,
 * and a transaction holds it from BEGIN to COMMIT: handed everything as it came, a redirect's link
 * lookup waited behind every click write and job queued before it. So statements outside
 * transactions, and BEGINs, which keep their turn until their transaction ends, go to PGlite one
 * at a time from `waiting`; an urgent read (Database.urgent) goes at once, and so waits at most
 * for the statement or transaction running now. A transaction's own statements go at once too:
 * nothing else runs until it ends.
 */
const waiting: Call[] = [];
let busy = false;

function next(): void {
  if (busy) return;
  const call = waiting.shift();
  if (!call) return;
  busy = true;
  void (async () => {
    const value = await run(call);
    if (call.op === 'begin' && typeof value === 'number') await transactions.get(value)?.ended.catch(() => {});
  })().finally(() => {
    busy = false;
    next();
  });
}

port.on('message', (call: Call) => {
  if (('tx' in call && call.tx !== undefined) || (call.op === 'query' && call.urgent)) {
    void run(call);
  } else {
    waiting.push(call);
    next();
  }
});

// This thread runs ten steps of niceness below the process: where the two compete for a core, the
// redirect is answered first and the database catches up on the buffered visits once the load
// eases, so a visit does not wait behind the writing of earlier ones (docs/adr/, "The embedded
// database yields the CPU to redirects", which also says what it costs API requests).
try {
  lowerThreadPriority(10);
  const { PGlite } = await import('@electric-sql/pglite');
  db = await PGlite.create({ dataDir: (workerData as WorkerInput).dataDir });
  post({ opened: true });
} catch (err) {
  post({ opened: false, error: errorFields(err) });
}
