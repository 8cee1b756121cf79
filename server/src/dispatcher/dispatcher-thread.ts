import { performance } from 'node:perf_hooks';
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
  /** How often the click event producer looks for new clicks (milliseconds). */
  clickEventPollMs: number;
}

/** What the main thread tells the dispatcher's thread. */
export type ToDispatcherThread =
  | { kind: 'stop' }
  /** How busy the main thread (the redirects) was over the last LOAD_EVERY_MS, 0 to 1. */
  | { kind: 'load'; utilization: number };

export type DispatcherThreadMessage =
  | { kind: 'started' }
  | { kind: 'failed'; error: string }
  | { kind: 'log'; obj: object; msg: string }
  | { kind: 'stopped' };

const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? '../../dist/dispatcher/dispatcher-worker.js' : './dispatcher-worker.js', import.meta.url);
/** A thread that died is started again after this long. */
const RESTART_MS = 1_000;
/** How often the main thread tells the dispatcher's thread how busy it is. */
const LOAD_EVERY_MS = 100;

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
  // Where this process answers redirects, the thread hears how busy they keep the main thread: its
  // click event producer holds back while they want the cores (domain/events/click-event-loop.ts).
  let last = performance.eventLoopUtilization();
  const load = input.niceness > 0 ? setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    worker.postMessage({ kind: 'load', utilization } satisfies ToDispatcherThread);
  }, LOAD_EVERY_MS).unref() : undefined;
  return {
    /** Stops claiming; waits for attempts in flight to finish and be recorded, then for the thread to end. */
    async stop() {
      stopping = true;
      clearInterval(load);
      await new Promise<void>((resolve) => {
        stopped = resolve;
        worker.postMessage({ kind: 'stop' } satisfies ToDispatcherThread);
      });
      await worker.terminate();
    },
  };
}
