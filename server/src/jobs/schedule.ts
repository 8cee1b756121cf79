import type { Database } from '../db/database.js';

export interface Job {
  name: string;
  /** A constant per job: processes sharing one database take turns through this advisory lock. */
  lockId: number;
  /** Runs every second or so: a run is not logged (its metrics still count it). */
  frequent?: boolean;
  /**
   * One run, in one transaction. A job that works in slices answers `{ more: true }` while work
   * remains: a repeating job then runs again at once, after other work waiting its turn (between
   * two slices the embedded database serves what queued meanwhile, a visit's link lookup first).
   */
  run(tx: import('../db/database.js').Queryable): Promise<unknown>;
}

const wantsMore = (result: unknown) => typeof result === 'object' && result !== null && (result as { more?: unknown }).more === true;

/**
 * Runs a job in a transaction holding its advisory lock; when another process holds it, this one
 * skips the run (locks, not timing, keep jobs from running twice).
 */
export async function runExclusive(db: Database, job: Job): Promise<{ ran: boolean; result?: unknown }> {
  return db.transaction(async (tx) => {
    const [{ locked }] = await tx.query<{ locked: boolean }>('select pg_try_advisory_xact_lock($1) as locked', [job.lockId]);
    if (!locked) return { ran: false };
    return { ran: true, result: await job.run(tx) };
  });
}

export interface Scheduler {
  every(ms: number, job: Job): void;
  /** Runs the job just after each UTC midnight. */
  dailyAtUtcMidnight(job: Job): void;
  stop(): void;
}

export function createScheduler(
  db: Database,
  log: { info(o: object, m: string): void; error(o: object, m: string): void },
  /** Each run's outcome and duration, for metrics; `skipped` when another process held the lock. */
  onRun?: (job: string, outcome: 'ran' | 'skipped' | 'failed', seconds: number) => void,
): Scheduler {
  const timers = new Set<NodeJS.Timeout>();
  const stops = new Set<() => void>();
  const exec = (job: Job) => {
    const started = performance.now();
    const took = () => (performance.now() - started) / 1000;
    return runExclusive(db, job)
      .then((r) => {
        onRun?.(job.name, r.ran ? 'ran' : 'skipped', took());
        if (r.ran && !job.frequent) log.info({ job: job.name, result: r.result }, 'job ran');
        return r.ran && wantsMore(r.result);
      })
      .catch((err) => {
        onRun?.(job.name, 'failed', took());
        log.error({ err, job: job.name }, 'job failed');
        return false;
      });
  };

  return {
    every(ms, job) {
      // A tick while the last run is still going is skipped: during a database outage a run waits
      // up to a second for a connection, and runs queued behind it would take the transaction
      // sessions the click writer needs (at a 100 ms interval, ten a second against four sessions).
      let running = false;
      let stopped = false;
      const slices = async () => {
        // setImmediate: the slices of a catch-up leave the event loop (and the database) to others in between.
        while (!stopped && (await exec(job))) await new Promise((r) => setImmediate(r));
      };
      const t = setInterval(() => {
        if (running) return;
        running = true;
        void slices().finally(() => (running = false));
      }, ms);
      stops.add(() => (stopped = true));
      t.unref();
      timers.add(t);
    },
    dailyAtUtcMidnight(job) {
      const arm = () => {
        const now = Date.now();
        const next = Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000 + 1_000;
        const t = setTimeout(() => {
          timers.delete(t);
          void exec(job).finally(arm);
        }, next - now);
        t.unref();
        timers.add(t);
      };
      arm();
    },
    stop() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const stop of stops) stop();
    },
  };
}
