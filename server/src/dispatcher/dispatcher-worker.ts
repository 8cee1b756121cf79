// The dispatcher's thread (PostgreSQL): claims, signs, sends and records deliveries on a database
// pool of its own. In a process that answers redirects it runs ten steps of niceness below them:
// where the two compete for a core, the redirect goes first and deliveries catch up once the load
// eases (docs/adr/, "Deliveries yield the CPU to redirects").
import { parentPort, workerData } from 'node:worker_threads';
import { openPostgres } from '../db/postgres.js';
import { systemClock } from '../domain/clock.js';
import { createSafePost } from '../domain/net/safe-post.js';
import { createPlanMode } from '../domain/plans/plan-mode.js';
import { createSecretBox, createSigningSecrets } from '../domain/webhooks/webhook-secrets.js';
import { createWebhookSender } from '../domain/webhooks/webhook-sender.js';
import { lowerThreadPriority } from '../thread-priority.js';
import { createEventOutbox } from '../domain/events/event-outbox.js';
import { createClickEventProducer } from '../domain/events/click-event-producer.js';
import { startClickEventLoop } from '../domain/events/click-event-loop.js';
import { newId } from '../domain/ids.js';
import { createDispatcher } from './dispatcher.js';
import { createOutcomeTally } from './delivery-outcomes.js';
import type { DispatcherThreadInput, DispatcherThreadMessage, ToDispatcherThread } from './dispatcher-thread.js';

/** Connections for the dispatcher's statements: a claim and the outcome writers overlap. */
const DISPATCHER_POOL = 4;
/**
 * How often the thread tells the main thread (which serves /metrics) what its attempts came to:
 * one message for however many attempts, and none while there were none.
 */
const OUTCOMES_EVERY_MS = 500;
const port = parentPort!;
const post = (m: DispatcherThreadMessage) => port.postMessage(m);
const input = workerData as DispatcherThreadInput;
const log = { error: (obj: object, msg: string) => post({ kind: 'log', obj: { ...obj, err: String((obj as { err?: unknown }).err ?? '') }, msg }) };

lowerThreadPriority(input.niceness);
try {
  // Claims, outcome writes (a few at once) and hand-backs, outside transactions; one transaction
  // session for the click event producer. Its lease lock and LISTEN take a connection each besides.
  const db = await openPostgres(input.databaseUrl, { poolMax: DISPATCHER_POOL, transactionSessions: 1 });
  const plans = createPlanMode(input.planMode);
  const outcomes = createOutcomeTally();
  const reportOutcomes = () => {
    const counts = outcomes.since();
    if (counts) post({ kind: 'outcomes', counts });
  };
  const dispatcher = createDispatcher({
    db,
    clock: systemClock,
    sender: createWebhookSender({ post: createSafePost({ allowPrivate: input.allowPrivateUrls }) }),
    signingSecrets: createSigningSecrets(createSecretBox(input.secret), systemClock),
    retryScale: input.retryScale,
    plans,
    log,
    outcomes,
  });
  await dispatcher.start();
  const outcomesTimer = setInterval(reportOutcomes, OUTCOMES_EVERY_MS).unref();
  // link.clicked and qr.scanned are produced here, from the click log, off the redirect's thread.
  // The main thread reports its load only where it answers redirects (niceness > 0).
  let utilization: number | undefined;
  const clickEvents = startClickEventLoop({
    producer: createClickEventProducer({ db, outbox: createEventOutbox({ newId, plans }) }),
    pollMs: input.clickEventPollMs,
    load: input.niceness > 0 ? () => utilization : undefined,
    busyPerSecond: input.clickEventsWhileBusy,
    log,
  });
  port.on('message', async (m: ToDispatcherThread) => {
    if (m.kind === 'load') {
      utilization = m.utilization;
      return;
    }
    await clickEvents.stop();
    await dispatcher.stop().catch((err) => post({ kind: 'log', obj: { err: String(err) }, msg: 'dispatcher stop failed' }));
    clearInterval(outcomesTimer);
    reportOutcomes(); // the attempts that finished while it stopped
    await db.close().catch(() => {});
    post({ kind: 'stopped' });
    port.close();
  });
  post({ kind: 'started' });
} catch (err) {
  post({ kind: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
