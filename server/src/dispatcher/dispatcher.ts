import { randomInt } from 'node:crypto';
import type { Database, HeldLock } from '../db/database.js';
import type { Clock } from '../domain/clock.js';
import type { WebhookRow } from '../domain/webhooks/webhook-row.js';
import type { WebhookSender } from '../domain/webhooks/webhook-sender.js';
import { EVENT_CHANNEL } from '../domain/events/event-outbox.js';
import { DISABLE_AFTER_FAILURES, retryDelayMs } from './retry-schedule.js';
import { plansWith } from '../domain/plans/plan-gates.js';
import { createFairShare, ENDPOINT_HOST_SQL, MAX_PER_HOST, MAX_PER_WORKSPACE } from './fair-share.js';

interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt_count: number;
  max_attempts: number;
  /** The webhook's columns signing needs; null when the webhook was deleted. */
  hook_id: string | null;
  url: string | null;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  /** null when the payload is past its retention. */
  payload: unknown;
  /** Whether the webhook's workspace is (still) on a plan with webhooks. */
  plan_allows: boolean | null;
  /** The endpoint's host[:port] and the workspace: the keys of fair delivery (null if deleted). */
  host: string | null;
  workspace_id: string | null;
}

/** What one attempt came to, to be written. */
interface Outcome {
  d: ClaimedDelivery;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  kind: 'succeeded' | 'failed' | 'retry';
  next: Date | null;
}

// A claimed delivery is this process's for 90 s: longer than the 30 s timeout, so only a crashed
// process's claim ever lapses, and the attempt in flight is the only one that can repeat.
const LEASE_SECONDS = 90;
// ...or until the process is gone. Each dispatcher holds the advisory lock (LEASE_LOCK_CLASS, its
// owner number) for as long as it lives and writes that number on what it claims; a lease whose
// lock is no longer in pg_locks belonged to a process that crashed (or lost its session), and
// lapses at once. Without this, the attempts a killed server had in flight waited 90 s after its
// restart (test/fault/sigkill-pending-deliveries.test.ts).
const LEASE_LOCK_CLASS = 72_410_201;
/** Attempts in flight at once per process. */
const BATCH = 16;
/** Free slots worth a claim: one claim per few deliveries, yet a few slow endpoints block nothing. */
const REFILL = 4;
/** Outcomes written by one statement at most. */
const RECORD_BATCH = 64;
/** PostgreSQL's foreign_key_violation. */
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * The dispatcher: claims due deliveries (FOR UPDATE SKIP LOCKED, so any number of processes can
 * run it), signs and sends each, logs the attempt, then schedules the next one or settles it.
 */
export function createDispatcher(deps: {
  db: Database;
  clock: Clock;
  sender: WebhookSender;
  signingSecrets: (row: WebhookRow) => string[];
  retryScale: number;
  pollMs?: number;
  log?: { error(o: object, m: string): void };
}) {
  const { db, clock, sender } = deps;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const share = createFairShare();
  const toRecord: { outcome: Outcome; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let recording = false;
  let owner = 0;
  let lease: HeldLock | null = null;
  /** Ends drain()'s wait for a free slot early. */
  let poke: (() => void) | undefined;

  // One statement claims the deliveries and reads what sending them needs (the webhook's URL and
  // secrets, the event's payload), instead of two more reads per delivery.
  async function claim(limit: number): Promise<ClaimedDelivery[]> {
    // A claim made while this process's lock is lost would lapse at once: wait until it is back.
    if (!(await lease?.ensure())) return [];
    const fair = share.state();
    // Candidates skip hosts and workspaces at their cap; of the rest, each host and workspace
    // gets only the slots it has left (ranked by due time), so one endpoint never fills the batch.
    return db.query<ClaimedDelivery>(
      `with cand as (
         select x.id, x.next_attempt_at, w.workspace_id as ws, ${ENDPOINT_HOST_SQL('w.url')} as host
         from deliveries x join webhooks w on w.id = x.webhook_id
         where x.status = 'pending' and w.is_active and x.next_attempt_at <= now()
           and (x.locked_until is null or x.locked_until < now()
             or x.locked_by::oid not in (select l.objid from pg_locks l
               where l.locktype = 'advisory' and l.classid = ${LEASE_LOCK_CLASS}::oid and l.objsubid = 2 and l.granted))
           and not (${ENDPOINT_HOST_SQL('w.url')} = any($4::text[])) and not (w.workspace_id = any($5::text[]))
         order by x.next_attempt_at limit $1 * 4 for update of x skip locked),
       busy as (select * from json_to_recordset($6::text::json) as b(kind text, key text, n int)),
       ranked as (
         select c.*, row_number() over (partition by c.host order by c.next_attempt_at, c.id) as host_rank,
           row_number() over (partition by c.ws order by c.next_attempt_at, c.id) as ws_rank
         from cand c),
       picked as (
         select r.id from ranked r
         where r.host_rank <= $7 - coalesce((select b.n from busy b where b.kind = 'host' and b.key = r.host), 0)
           and r.ws_rank <= $8 - coalesce((select b.n from busy b where b.kind = 'ws' and b.key = r.ws), 0)
         order by r.next_attempt_at limit $1),
       c as (
         update deliveries d set attempt_count = d.attempt_count + 1, locked_until = now() + interval '${LEASE_SECONDS} seconds',
           locked_by = $2, updated_at = now()
         where d.id in (select id from picked)
         returning d.id, d.webhook_id, d.event_id, d.event_type, d.attempt_count, d.max_attempts)
       select c.*, w.id as hook_id, w.url, w.secret, w.previous_secret, w.previous_secret_until, e.payload,
         ws.plan = any($3::text[]) as plan_allows, ${ENDPOINT_HOST_SQL('w.url')} as host, w.workspace_id
       from c left join webhooks w on w.id = c.webhook_id left join events e on e.id = c.event_id
         left join workspaces ws on ws.id = w.workspace_id`,
      [limit, owner, plansWith('webhooks'), fair.fullHosts, fair.fullWorkspaces, fair.busy, MAX_PER_HOST, MAX_PER_WORKSPACE],
    );
  }

  async function attempt(d: ClaimedDelivery): Promise<void> {
    const hook = d.hook_id ? ({ id: d.hook_id, url: d.url, secret: d.secret, previous_secret: d.previous_secret,
      previous_secret_until: d.previous_secret_until } as WebhookRow) : null;
    const at = clock.now();
    let secrets: string[] = [];
    let secretError: string | null = null;
    try {
      if (hook) secrets = deps.signingSecrets(hook);
    } catch {
      // Every process of a fleet must share HOP_SECRET; one that does not cannot sign.
      secretError = 'cannot decrypt the webhook secret: HOP_SECRET differs between server processes';
    }
    // A workspace below Pro sends nothing more: the delivery ends at once, without counting
    // against the webhook (it did not fail; it was not sent).
    const planRequired = hook !== null && d.plan_allows === false;
    const result = !hook
      ? { ok: false, statusCode: null, durationMs: 0, error: 'webhook deleted' }
      : planRequired
        ? { ok: false, statusCode: null, durationMs: 0, error: 'plan_required' }
      : d.payload == null
        ? { ok: false, statusCode: null, durationMs: 0, error: 'payload past its 7-day retention' }
        : secretError
          ? { ok: false, statusCode: null, durationMs: 0, error: secretError }
          : await sender.send({
            url: hook.url, secrets, deliveryId: d.id, eventType: d.event_type,
            rawBody: typeof d.payload === 'string' ? d.payload : JSON.stringify(d.payload),
          });
    const exhausted = !result.ok && (d.attempt_count >= d.max_attempts || planRequired);
    const outcome: Outcome = {
      d, at, statusCode: result.statusCode, durationMs: Math.round(result.durationMs), error: result.error?.slice(0, 500) ?? null,
      kind: result.ok ? 'succeeded' : exhausted ? 'failed' : 'retry',
      next: result.ok || exhausted ? null : new Date(clock.now().getTime() + retryDelayMs(d.attempt_count, deps.retryScale)),
    };
    // An exhausted delivery counts against its webhook (which it may disable): on its own. The
    // others are written together with those that finish while a write is under way: one
    // statement, one commit for many attempts.
    if (outcome.kind === 'failed') await recordOne(outcome, !planRequired);
    else await new Promise<void>((resolve, reject) => {
      toRecord.push({ outcome, resolve, reject });
      if (!recording) void recordQueued();
    });
  }

  // The attempt, the delivery's new state and the webhook's failure count in one statement
  // (atomic as a transaction, one round trip instead of five).
  async function recordOne(o: Outcome, countsAgainstWebhook = true): Promise<void> {
    await recordOneStatement(o, countsAgainstWebhook).catch((err) => {
      // Deleted between the check and the insert: the same as above.
      if ((err as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw err;
    });
  }

  async function recordOneStatement(o: Outcome, countsAgainstWebhook: boolean): Promise<void> {
    const { d } = o;
    // A delivery deleted meanwhile (with its webhook) has nothing left to record.
    const logAttempt = `insert into delivery_attempts (delivery_id, number, at, status_code, duration_ms, error)
      select $1, $2, $3, $4, $5, $6 where exists (select 1 from deliveries where id = $1) on conflict do nothing`;
    const logged = [d.id, d.attempt_count, o.at, o.statusCode, o.durationMs, o.error];
    if (o.kind === 'succeeded') {
      // Only a webhook with failures is written: every success taking the webhook's row lock
      // would serialise the deliveries of a busy webhook.
      await db.query(
        `with a as (${logAttempt}),
           s as (update deliveries set status = 'succeeded', next_attempt_at = null, locked_until = null, updated_at = now() where id = $1)
         update webhooks set consecutive_failures = 0 where id = $7 and consecutive_failures <> 0`,
        [...logged, d.webhook_id],
      );
    } else if (o.kind === 'failed' && !countsAgainstWebhook) {
      await db.query(
        `with a as (${logAttempt})
         update deliveries set status = 'failed', next_attempt_at = null, locked_until = null, updated_at = now() where id = $1`,
        logged,
      );
    } else if (o.kind === 'failed') {
      await db.query(
        `with a as (${logAttempt}),
           s as (update deliveries set status = 'failed', next_attempt_at = null, locked_until = null, updated_at = now() where id = $1)
         update webhooks set consecutive_failures = consecutive_failures + 1,
           is_active = is_active and consecutive_failures + 1 < $8,
           disabled_at = case when is_active and consecutive_failures + 1 >= $8 then now() else disabled_at end
         where id = $7`,
        [...logged, d.webhook_id, DISABLE_AFTER_FAILURES],
      );
    } else {
      await db.query(
        `with a as (${logAttempt})
         update deliveries set next_attempt_at = $7, locked_until = null, updated_at = now() where id = $1`,
        [...logged, o.next],
      );
    }
  }

  /** Successes and retries, many in one statement (fed by one JSON text). */
  async function recordMany(outcomes: Outcome[]): Promise<void> {
    const rows = outcomes.map((o) => ({
      id: o.d.id, number: o.d.attempt_count, at: o.at.toISOString(), status_code: o.statusCode, duration_ms: o.durationMs,
      error: o.error, kind: o.kind, next_at: o.next?.toISOString() ?? null, webhook_id: o.d.webhook_id,
    }));
    await db.query(
      `with v as (
         select * from json_to_recordset($1::text::json) as v(id text, number int, at timestamptz, status_code int,
           duration_ms int, error text, kind text, next_at timestamptz, webhook_id text)),
       a as (
         insert into delivery_attempts (delivery_id, number, at, status_code, duration_ms, error)
         select id, number, at, status_code, duration_ms, error from v
         where exists (select 1 from deliveries d where d.id = v.id) on conflict do nothing),
       s as (
         update deliveries x set status = case when v.kind = 'succeeded' then 'succeeded' else x.status end,
           next_attempt_at = case when v.kind = 'retry' then v.next_at end, locked_until = null, updated_at = now()
         from v where x.id = v.id)
       update webhooks set consecutive_failures = 0
       where id in (select webhook_id from v where kind = 'succeeded') and consecutive_failures <> 0`,
      [JSON.stringify(rows)],
    );
  }

  async function recordQueued(): Promise<void> {
    recording = true;
    try {
      while (toRecord.length > 0) {
        const batch = toRecord.splice(0, RECORD_BATCH);
        try {
          await recordMany(batch.map((b) => b.outcome));
          for (const b of batch) b.resolve();
        } catch {
          // One bad row (its webhook deleted meanwhile) must not lose the others: one at a time.
          for (const b of batch) await recordOne(b.outcome).then(b.resolve, b.reject);
        }
      }
    } finally {
      recording = false;
    }
  }

  // Retries come due between polls; wake exactly when the next one is due.
  let nextTimer: NodeJS.Timeout | undefined;
  async function armNextDue() {
    const [r] = await db.query<{ ms: number | null }>(
      `select (extract(epoch from min(next_attempt_at) - now()) * 1000)::float8 as ms from deliveries where status = 'pending'`,
    );
    if (r?.ms == null || stopped) return;
    if (nextTimer) clearTimeout(nextTimer);
    nextTimer = setTimeout(wake, Math.max(0, Number(r.ms)) + 5);
    nextTimer.unref();
  }

  function start(d: ClaimedDelivery) {
    const slot = { host: d.host ?? '', workspaceId: d.workspace_id ?? '' };
    share.take(slot);
    const p: Promise<void> = attempt(d)
      .catch((err) => deps.log?.error({ err, delivery: d.id }, 'delivery attempt failed to record'))
      .finally(() => {
        inFlight.delete(p);
        share.give(slot);
      });
    inFlight.add(p);
  }

  // Keeps up to BATCH attempts in flight, claiming again as soon as REFILL slots are free (or all
  // are): a slow endpoint holds its own slot, not the whole batch.
  async function drain(): Promise<void> {
    for (;;) {
      if (stopped) return;
      const free = BATCH - inFlight.size;
      if (free >= REFILL || inFlight.size === 0) {
        again = false;
        const batch = await claim(free);
        for (const d of batch) start(d);
        // Fewer than asked may mean a host or workspace reached its cap: the next claim skips it.
        if (batch.length > 0 && BATCH - inFlight.size >= REFILL) continue;
      }
      if (inFlight.size === 0) {
        if (!again) break;
        continue;
      }
      // Until a slot frees up or wake() is called: waiting for a slot alone, new deliveries sat
      // behind endpoints that hang until their 30 s timeout, though most slots were free
      // (test/fault/sigkill-pending-deliveries.test.ts caught it).
      if (again && BATCH - inFlight.size >= REFILL) continue; // woken during the claim
      await Promise.race([...inFlight, new Promise<void>((resolve) => (poke = resolve))]);
      poke = undefined;
    }
    await armNextDue();
  }

  /** Runs a pass now, or right after the current one. */
  function wake() {
    if (running) {
      again = true;
      poke?.();
      return;
    }
    running = drain()
      .catch((err) => deps.log?.error({ err }, 'dispatcher pass failed'))
      .finally(() => (running = undefined));
  }

  return {
    wake,
    async start() {
      // A random owner number; in the rare case another live process has it, draw again.
      while (!lease) {
        owner = randomInt(1, 2 ** 31);
        lease = await db.holdLock(LEASE_LOCK_CLASS, owner);
      }
      unlisten = await db.listen(EVENT_CHANNEL, () => wake(), () => wake());
      // Retries come due without a notification; a light poll finds them.
      timer = setInterval(wake, deps.pollMs ?? 500);
      timer.unref();
      wake();
    },
    /** Stops claiming; waits for attempts in flight to finish and be recorded. */
    async stop() {
      stopped = true;
      poke?.();
      if (timer) clearInterval(timer);
      if (nextTimer) clearTimeout(nextTimer);
      await unlisten?.();
      await Promise.allSettled([...inFlight]);
      await running;
      await lease?.release();
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
