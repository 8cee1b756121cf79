import { Worker } from 'node:worker_threads';
import type { PlanModeName } from '../domain/plans/plan-mode.js';

/** What the dispatcher's thread needs to know (it reads no configuration of its own). */
export interface DispatcherThreadInput {
  databaseUrl: string;
  /** HOP_SECRET (or the data directory's), which opens the webhook secrets. */
  secret: string;
  allowPrivateUrls: boolean;
  retryScale: number;
  planMode: PlanModeName;
  /** Steps of niceness below the process: where this process also answers redirects, they go first. */
  niceness: number;
}

export type DispatcherThreadMessage =
  | { kind: 'started' }
  | { kind: 'failed'; error: string }
  | { kind: 'log'; obj: object; msg: string }
  | { kind: 'stopped' };

const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? '../../dist/dispatcher/dispatcher-worker.js' : './dispatcher-worker.js', import.meta.url);
/** A thread that died is started again after this long. */
const RESTART_MS = 1_000;

/**
 * Runs the dispatcher in a worker thread of its own (PostgreSQL only: the embedded database is one
 * session, owned by the process). Resolves once it has taken its lease and begun claiming; a
 * thread that dies is logged and started again, so deliveries never stop quietly.
 */
export async function startDispatcherThread(input: DispatcherThreadInput, log: { error(o: object, m: string): void }) {
  let worker: Worker;
  let stopping = false;
  let stopped: (() => void) | undefined;

  function spawn(): Promise<void> {
    return new Promise((resolve, reject) => {
      let started = false;
      worker = new Worker(WORKER_URL, { workerData: input });
      worker.on('message', (m: DispatcherThreadMessage) => {
        if (m.kind === 'started') {
          started = true;
          resolve();
        } else if (m.kind === 'failed') reject(new Error(`the dispatcher could not start: ${m.error}`));
        else if (m.kind === 'log') log.error(m.obj, m.msg);
        else stopped?.();
      });
      worker.on('error', (err) => {
        if (!started) reject(err);
        else log.error({ err }, 'the dispatcher thread failed');
      });
      worker.on('exit', () => {
        stopped?.();
        if (started && !stopping) {
          log.error({}, 'the dispatcher thread ended: starting another');
          setTimeout(() => void spawn().catch((err) => log.error({ err }, 'the dispatcher thread could not start again')), RESTART_MS).unref();
        }
      });
    });
  }

  await spawn();
  return {
    /** Stops claiming; waits for attempts in flight to finish and be recorded, then for the thread to end. */
    async stop() {
      stopping = true;
      await new Promise<void>((resolve) => {
        stopped = resolve;
        worker.postMessage('stop');
      });
      await worker.terminate();
    },
  };
}
