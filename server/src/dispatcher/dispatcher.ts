import { randomInt } from 'node:crypto';
import type { Database, HeldLock } from '../db/database.js';
import type { Clock } from '../domain/clock.js';
import type { WebhookRow } from '../domain/webhooks/webhook-row.js';
import type { WebhookSender } from '../domain/webhooks/webhook-sender.js';
import { EVENT_CHANNEL } from '../domain/events/event-outbox.js';
import { DISABLE_AFTER_FAILURES, retryDelayMs } from './retry-schedule.js';
import { plansWith } from '../domain/plans/plan-gates.js';
import type { PlanMode } from '../domain/plans/plan-mode.js';
import type { DeliveryOutcome, OutcomeTally } from './delivery-outcomes.js';
import { createFairShare, ENDPOINT_HOST_SQL, INITIAL_PER_HOST, MAX_PER_WORKSPACE, PREFETCH, SLOTS, type Answer, type Slot } from './fair-share.js';

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
  /** The event as stored (sent as it is, never parsed); null when past its retention. */
  payload: string | null;
  /** Whether the webhook's workspace is (still) on a plan with webhooks. */
  plan_allows: boolean | null;
  /** The endpoint's host[:port] and the workspace: the keys of fair delivery (null if deleted). */
  host: string | null;
  workspace_id: string | null;
  /** When this process claimed it (performance.now()), to keep a queued one within its lease. */
  claimedAt?: number;
}

/** What one attempt came to, to be written. */
interface Outcome {
  d: ClaimedDelivery;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  kind: DeliveryOutcome;
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
/** A Retry-After longer than the retry schedule's last step is cut to it. */
const MAX_RETRY_AFTER_MS = 128_000;
/** A claimed delivery that waited this long in the process goes back unsent: its 90 s lease covers the wait and a 30 s attempt. */
const MAX_QUEUED_MS = 20_000;
/** Attempts claimed and not yet recorded, at most. */
const MAX_UNRECORDED = SLOTS * 2;
/** Completions worth a claim while deliveries wait behind the hosts' limits: one claim per many deliveries. */
const CLAIM_EVERY = 16;
/** Outcomes written by one statement at most. */
const RECORD_BATCH = 256;
/** Record statements at once, at most. */
const RECORD_WRITERS = 3;
/** Outcomes waiting that are worth another statement while one is under way. */
const RECORD_MORE = 64;
// The statements a busy dispatcher runs again and again, their text fixed: parsed and planned once
// per connection instead of at every run, and each run one round trip instead of two (parse and
// describe, then bind and execute).
const PREPARED = { prepare: true };
// ...except those that find deliveries by a list of ids (`id = any($1)`). A prepared statement's
// generic plan is made once, from the table's size at its sixth run, and kept until an ANALYZE
// invalidates it: made while `deliveries` held a page or two (a new install, a fresh dispatcher on
// an empty outbox), it reads the whole table, twice a statement, and nothing plans it again where
// autovacuum is off or behind. A plan made at each run sees the table as it is and reads the
// primary key; its planning costs less than a millisecond a statement, shared by its batch.
const PLANNED_EACH_RUN = { prepare: false };
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
  /** How a workspace's stored plan reads (HOP_PLANS). */
  plans: PlanMode;
  pollMs?: number;
  log?: { error(o: object, m: string): void };
  /** Counts each attempt's outcome once it is recorded (the metrics' counters read it). */
  outcomes?: OutcomeTally;
}) {
  const { db, clock, sender, plans } = deps;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const share = createFairShare();
  const toRecord: { outcome: Outcome; resolve: () => void; reject: (err: unknown) => void }[] = [];
  /** Record statements under way (a few at once: one commit's wait need not hold up the next batch). */
  let writers = 0;
  let owner = 0;
  let lease: HeldLock | null = null;
  /** Ends drain()'s wait: an event was written, or enough attempts finished to claim again. */
  let poke: (() => void) | undefined;
  let doneSinceClaim = 0;
  /** Attempts waiting for their endpoint's answer (inFlight also holds those being recorded). */
  let sending = 0;
  let claimAfter = 1;
  /** Claimed deliveries waiting for a slot on their host, oldest first. */
  const queues = new Map<string, ClaimedDelivery[]>();
  let queued = 0;
  const slotOf = (d: ClaimedDelivery): Slot => ({ host: d.host ?? '', workspaceId: d.workspace_id ?? '' });

  // One statement claims the deliveries and reads what sending them needs (the webhook's URL and
  // secrets, the event's payload as its stored text), instead of two more reads per delivery.
  //
  // It walks the webhooks that have due deliveries (a skip scan of the pending index: one probe
  // per webhook, however deep a flooded webhook's backlog), gives each host and workspace only the
  // slots it has left, and takes each webhook's oldest deliveries. The pick goes round the hosts
  // (every host's first delivery before any host's second), so a flood to one endpoint never
  // stands in front of another endpoint's event.
  async function claim(limit: number): Promise<ClaimedDelivery[]> {
    // A claim made while this process's lock is lost would lapse at once: wait until it is back.
    if (!(await lease?.ensure())) return [];
    return db.query<ClaimedDelivery>(
      `with recursive due(webhook_id) as (
         (select webhook_id from deliveries where status = 'pending' and next_attempt_at <= now() order by webhook_id limit 1)
         union all
         select (select x.webhook_id from deliveries x
                 where x.status = 'pending' and x.next_attempt_at <= now() and x.webhook_id > due.webhook_id
                 order by x.webhook_id limit 1)
         from due where due.webhook_id is not null),
       lim as (select * from json_to_recordset($4::text::json) as b(kind text, key text, n int, cap int)),
       live as (select l.objid from pg_locks l
         where l.locktype = 'advisory' and l.classid = ${LEASE_LOCK_CLASS}::oid and l.objsubid = 2 and l.granted),
       hooks as (
         select w.id, w.workspace_id as ws, ${ENDPOINT_HOST_SQL('w.url')} as host
         from due join webhooks w on w.id = due.webhook_id where w.is_active),
       room as (
         select h.*,
           coalesce((select b.cap - b.n from lim b where b.kind = 'host' and b.key = h.host), $5) as host_free,
           coalesce((select b.cap - b.n from lim b where b.kind = 'ws' and b.key = h.ws), $6) as ws_free
         from hooks h),
       cand as (
         select r.host, r.ws, r.host_free, r.ws_free, x.id, x.next_attempt_at
         from room r cross join lateral (
           select x.id, x.next_attempt_at from deliveries x
           where x.webhook_id = r.id and x.status = 'pending' and x.next_attempt_at <= now()
             and (x.locked_until is null or x.locked_until < now() or x.locked_by::oid not in (select objid from live))
           order by x.next_attempt_at limit least(r.host_free, r.ws_free, $1)
           for update of x skip locked) x
         where r.host_free > 0 and r.ws_free > 0),
       ranked as (
         select c.*, row_number() over (partition by c.host order by c.next_attempt_at, c.id) as host_rank,
           row_number() over (partition by c.ws order by c.next_attempt_at, c.id) as ws_rank
         from cand c),
       picked as (
         select r.id from ranked r where r.host_rank <= r.host_free and r.ws_rank <= r.ws_free
         order by r.host_rank, r.next_attempt_at limit $1),
       c as (
         update deliveries d set attempt_count = d.attempt_count + 1, locked_until = now() + interval '${LEASE_SECONDS} seconds',
           locked_by = $2, updated_at = now()
         where d.id in (select id from picked)
         returning d.id, d.webhook_id, d.event_id, d.event_type, d.attempt_count, d.max_attempts)
       select c.*, w.id as hook_id, w.url, w.secret, w.previous_secret, w.previous_secret_until, e.payload::text as payload,
         ${plans.planSql('ws.plan')} = any($3::text[]) as plan_allows, ${ENDPOINT_HOST_SQL('w.url')} as host, w.workspace_id
       from c left join webhooks w on w.id = c.webhook_id left join events e on e.id = c.event_id
         left join workspaces ws on ws.id = w.workspace_id`,
      [limit, owner, plansWith('webhooks'), share.state(), INITIAL_PER_HOST * PREFETCH, MAX_PER_WORKSPACE * PREFETCH],
      PREPARED,
    );
  }

  /** One attempt, sent and recorded; `answered` hears what the endpoint said as soon as it said it. */
  async function attempt(d: ClaimedDelivery, answered: (a: Answer) => void): Promise<void> {
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
    const skipped = !hook ? 'webhook deleted'
      : planRequired ? 'plan_required'
      : d.payload == null ? 'payload past its 7-day retention'
      : secretError;
    const sent = skipped || !hook || d.payload == null ? null
      : await sender.send({ url: hook.url, secrets, deliveryId: d.id, eventType: d.event_type, rawBody: d.payload });
    const result = sent ?? { ok: false, statusCode: null, durationMs: 0, error: skipped };
    // The endpoint has answered: its slot is free for the next attempt while this one is recorded.
    if (sent) answered({ statusCode: sent.statusCode, durationMs: sent.durationMs, transportError: sent.connectionFailed === true, retryAfterSeconds: sent.retryAfterSeconds });
    const exhausted = !result.ok && (d.attempt_count >= d.max_attempts || planRequired);
    const outcome: Outcome = {
      d, at, statusCode: result.statusCode, durationMs: Math.round(result.durationMs), error: result.error?.slice(0, 500) ?? null,
      kind: result.ok ? 'succeeded' : exhausted ? 'failed' : 'retry',
      next: result.ok || exhausted ? null : nextAttemptAt(d.attempt_count, sent?.retryAfterSeconds),
    };
    // An exhausted delivery counts against its webhook (which it may disable): on its own. The
    // others are written together with those that finish while a write is under way: one
    // statement, one commit for many attempts.
    if (outcome.kind === 'failed') await recordOne(outcome, !planRequired);
    else await new Promise<void>((resolve, reject) => {
      toRecord.push({ outcome, resolve, reject });
      if (writers === 0 || (writers < RECORD_WRITERS && toRecord.length >= RECORD_MORE)) void recordQueued();
    });
    deps.outcomes?.add(outcome.kind);
  }

  /** The schedule's next attempt, or later when the endpoint asked for it (Retry-After). */
  function nextAttemptAt(attemptsMade: number, retryAfterSeconds: number | null | undefined): Date {
    const scheduled = retryDelayMs(attemptsMade, deps.retryScale);
    const asked = Math.min((retryAfterSeconds ?? 0) * 1000, MAX_RETRY_AFTER_MS);
    return new Date(clock.now().getTime() + Math.max(scheduled, asked));
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
        [...logged, d.webhook_id], PREPARED,
      );
    } else if (o.kind === 'failed' && !countsAgainstWebhook) {
      await db.query(
        `with a as (${logAttempt})
         update deliveries set status = 'failed', next_attempt_at = null, locked_until = null, updated_at = now() where id = $1`,
        logged, PREPARED,
      );
    } else if (o.kind === 'failed') {
      await db.query(
        `with a as (${logAttempt}),
           s as (update deliveries set status = 'failed', next_attempt_at = null, locked_until = null, updated_at = now() where id = $1)
         update webhooks set consecutive_failures = consecutive_failures + 1,
           is_active = is_active and consecutive_failures + 1 < $8,
           disabled_at = case when is_active and consecutive_failures + 1 >= $8 then now() else disabled_at end
         where id = $7`,
        [...logged, d.webhook_id, DISABLE_AFTER_FAILURES], PREPARED,
      );
    } else {
      await db.query(
        `with a as (${logAttempt})
         update deliveries set next_attempt_at = $7, locked_until = null, updated_at = now() where id = $1`,
        [...logged, o.next], PREPARED,
      );
    }
  }

  /**
   * Successes and retries, many in one statement, fed by one array per column. Each delivery is
   * found by its key (`id = any(...)`, which PostgreSQL reads through the primary key): joined
   * with the batch alone, the planner chose to read the whole deliveries table, twice a statement,
   * whenever it still fitted in memory.
   */
  async function recordMany(outcomes: Outcome[]): Promise<void> {
    const col = <T>(f: (o: Outcome) => T) => outcomes.map(f);
    await db.query(
      `with v as (
         select * from unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[],
           $8::timestamptz[], $9::text[]) as v(id, number, at, status_code, duration_ms, error, kind, next_at, webhook_id)),
       a as (
         insert into delivery_attempts (delivery_id, number, at, status_code, duration_ms, error)
         select id, number, at, status_code, duration_ms, error from v
         where v.id in (select d.id from deliveries d where d.id = any($1::text[])) on conflict do nothing),
       s as (
         update deliveries x set status = case when v.kind = 'succeeded' then 'succeeded' else x.status end,
           next_attempt_at = case when v.kind = 'retry' then v.next_at end, locked_until = null, updated_at = now()
         from v where x.id = v.id and x.id = any($1::text[]))
       update webhooks set consecutive_failures = 0
       where id in (select webhook_id from v where kind = 'succeeded') and consecutive_failures <> 0`,
      [col((o) => o.d.id), col((o) => o.d.attempt_count), col((o) => o.at.toISOString()), col((o) => o.statusCode),
        col((o) => o.durationMs), col((o) => o.error), col((o) => o.kind), col((o) => o.next?.toISOString() ?? null),
        col((o) => o.d.webhook_id)],
      PLANNED_EACH_RUN,
    );
  }

  async function recordQueued(): Promise<void> {
    writers++;
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
      writers--;
    }
  }

  // Retries come due between polls; wake exactly when the next one is due.
  let nextTimer: NodeJS.Timeout | undefined;
  async function armNextDue() {
    const [r] = await db.query<{ ms: number | null }>(
      `select (extract(epoch from min(next_attempt_at) - now()) * 1000)::float8 as ms from deliveries where status = 'pending'`,
      [], PREPARED,
    );
    if (r?.ms == null || stopped) return;
    if (nextTimer) clearTimeout(nextTimer);
    nextTimer = setTimeout(wake, Math.max(0, Number(r.ms)) + 5);
    nextTimer.unref();
  }

  function start(d: ClaimedDelivery) {
    const slot = slotOf(d);
    const seq = share.take(slot);
    sending++;
    let released = false;
    const release = (answer?: Answer) => {
      if (released) return;
      released = true;
      sending--;
      share.give(slot, seq, answer);
      doneSinceClaim++;
      startQueued();
      if (sending + queued === 0 || doneSinceClaim >= claimAfter) poke?.();
    };
    const p: Promise<void> = attempt(d, release)
      .catch((err) => deps.log?.error({ err, delivery: d.id }, 'delivery attempt failed to record'))
      .finally(() => {
        release();
        inFlight.delete(p);
        poke?.();
      });
    inFlight.add(p);
  }

  /** Starts the queued deliveries whose host and workspace have room; hands back those of a paused host. */
  function startQueued() {
    for (const [host, q] of queues) {
      const stale: ClaimedDelivery[] = [];
      while (q.length > 0 && sending < SLOTS && share.canStart(slotOf(q[0]))) {
        const d = q.shift()!;
        if (performance.now() - d.claimedAt! > MAX_QUEUED_MS) {
          stale.push(d);
          continue;
        }
        share.unqueue(slotOf(d));
        queued--;
        start(d);
      }
      // Queued behind a slow endpoint for long: back to the database before its lease can lapse.
      if (stale.length) void unclaim(stale, null);
      const until = share.pausedUntil(host);
      if (until && q.length > 0) void unclaim(q.splice(0), new Date(until));
      if (q.length === 0) queues.delete(host);
    }
  }

  function enqueue(batch: ClaimedDelivery[]) {
    for (const d of batch) {
      const key = d.host ?? '';
      d.claimedAt = performance.now();
      (queues.get(key) ?? queues.set(key, []).get(key)!).push(d);
      share.queue(slotOf(d));
      queued++;
    }
    startQueued();
  }

  /**
   * Hands claimed deliveries that were never sent back to the database, their attempt not spent:
   * at a stop, or when their host asked to wait (Retry-After), due again then.
   */
  async function unclaim(ds: ClaimedDelivery[], at: Date | null) {
    for (const d of ds) share.unqueue(slotOf(d));
    queued -= ds.length;
    await db.query(
      `update deliveries set attempt_count = attempt_count - 1, locked_until = null,
         next_attempt_at = greatest(next_attempt_at, coalesce($3::timestamptz, now())), updated_at = now()
       where id = any($1::text[]) and locked_by = $2 and status = 'pending'`,
      [ds.map((d) => d.id), owner, at], PLANNED_EACH_RUN,
    ).catch((err) => deps.log?.error({ err }, 'could not hand back claimed deliveries (their lease lapses)'));
  }

  // Keeps up to SLOTS attempts sending or queued (and at most MAX_UNRECORDED not yet recorded: a
  // slow database holds claims back rather than piling up outcomes). A claim that filled every slot
  // it asked for is followed by another at once; otherwise the hosts' limits held deliveries back,
  // and the next claim waits until a quarter of the attempts in flight (at most CLAIM_EVERY) have
  // been answered, or until an event is written (wake): one claim per many deliveries at volume,
  // yet a hung endpoint's few attempts never keep another workspace's event waiting.
  async function drain(): Promise<void> {
    let claimNow = true;
    for (;;) {
      if (stopped) return;
      if (again || doneSinceClaim >= claimAfter) claimNow = true;
      // Never more claimed than the process could send at once: a delivery claimed here waits only
      // for its own host's (or workspace's) slot, never for the process's.
      const free = Math.min(SLOTS - sending - queued, MAX_UNRECORDED - inFlight.size - queued);
      if (free > 0 && claimNow) {
        claimNow = false;
        again = false;
        doneSinceClaim = 0;
        const batch = await claim(free);
        if (stopped) return void (await unclaim(batch, null));
        enqueue(batch);
        claimAfter = Math.min(CLAIM_EVERY, Math.max(1, Math.floor((sending + queued) / 4)));
        // Every slot asked for was filled: more may be due at once.
        claimNow = batch.length === free;
        continue;
      }
      if (inFlight.size === 0 && queued === 0) {
        if (!again) break;
        continue;
      }
      await new Promise<void>((resolve) => (poke = resolve));
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
      await running;
      // What was claimed but not sent goes back as it was, for this or another process to send.
      const waiting = [...queues.values()].flat();
      queues.clear();
      if (waiting.length) await unclaim(waiting, null);
      await Promise.allSettled([...inFlight]);
      await lease?.release();
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
