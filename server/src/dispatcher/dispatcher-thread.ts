import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { PlanModeName } from '../domain/plans/plan-mode.js';
import type { OutcomeCounts } from './delivery-outcomes.js';

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
  /** Click events produced a second while the redirects want the cores (HOP_CLICK_EVENTS_WHILE_BUSY). */
  clickEventsWhileBusy: number;
}

/** What the main thread tells the dispatcher's thread. */
export type ToDispatcherThread =
  | { kind: 'stop' }
  /** How much the redirects wanted the cores over the last LOAD_EVERY_MS, 0 to 1 (redirectLoad). */
  | { kind: 'load'; utilization: number };

export type DispatcherThreadMessage =
  | { kind: 'started' }
  | { kind: 'failed'; error: string }
  | { kind: 'log'; obj: object; msg: string }
  /** Attempts recorded since the last such message, by outcome. */
  | { kind: 'outcomes'; counts: OutcomeCounts }
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
export async function startDispatcherThread(
  input: DispatcherThreadInput,
  log: { error(o: object, m: string): void },
  /** Hears what the thread's attempts came to, a batch at a time (for the metrics). */
  onOutcomes: (counts: OutcomeCounts) => void,
) {
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
        else if (m.kind === 'outcomes') onOutcomes(m.counts);
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
  let lastCpu = machineCpu();
  const load = input.niceness > 0 ? setInterval(() => {
    const now = performance.eventLoopUtilization();
    const cpu = machineCpu();
    const utilization = redirectLoad(performance.eventLoopUtilization(now, last).utilization, cpu, lastCpu);
    last = now;
    lastCpu = cpu;
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

/** The machine's CPU time so far, idle and in all, over every core (milliseconds). */
function machineCpu(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/**
 * Redirects that keep the main thread at least this busy are heavy traffic, not a trickle: on a
 * machine with no core to spare they want the cores as much as a saturated event loop does.
 */
const HEAVY_UTILIZATION = 1 / 3;

/**
 * How much the redirects want the cores, 0 to 1: the main thread's event-loop utilization, or,
 * under heavy traffic, the machine's busy share if higher. A main thread can sit below full
 * utilization while the machine is saturated (its clients, the database and the deliveries share
 * the cores), and every delivery made then is taken from the redirects.
 */
export function redirectLoad(utilization: number, now: { idle: number; total: number }, before: { idle: number; total: number }): number {
  if (utilization < HEAVY_UTILIZATION) return utilization;
  const total = now.total - before.total;
  if (total <= 0) return utilization;
  return Math.max(utilization, 1 - (now.idle - before.idle) / total);
}
