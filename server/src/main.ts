import { loadConfig, ConfigError } from './config.js';
import { openDatabase } from './db/open.js';
import { migrate } from './db/migrate.js';
import { createServices, loadSecret } from './services.js';
import { joinFleet } from './fleet-agreement.js';
import { buildApp } from './api/app.js';
import { connectionDrain } from './api/connection-drain.js';
import { createMetrics } from './api/plugins/metrics.js';
import { LINK_CHANGED_CHANNEL } from './redirector/link-cache.js';
import { DOMAIN_CHANGED_CHANNEL } from './redirector/host-domains.js';
import { PLAN_CHANGED_CHANNEL } from './domain/rate-limits/rate-limits-service.js';
import { startDispatcherThread } from './dispatcher/dispatcher-thread.js';
import { startClickEventLoop } from './domain/events/click-event-loop.js';
import { createScheduler, runExclusive } from './jobs/schedule.js';
import { retentionJob } from './jobs/retention-job.js';
import { saltRotationJob } from './jobs/salt-rotation-job.js';
import { expiryJob } from './jobs/expiry-job.js';
import { startLinkHealthJob } from './jobs/link-health-job.js';
import { clickAggregationJob } from './jobs/click-aggregation-job.js';
import { clickPartitionsJob } from './jobs/click-partitions-job.js';
import { startWarmUp } from './redirector/cache-warm-up.js';
import { createPrettyLog, greeting, listenFailure, modeReport, wantsPrettyLogs } from './startup-report.js';

/** How far the dispatcher's thread stands back from redirects in a process that serves both. */
const DISPATCHER_NICENESS = 10;
/** The longest the click event producer waits between looks at the click log (less when clicks flush more often). */
const CLICK_EVENT_POLL_MS = 250;
/** How long the start waits for the redirect cache's warm-up before taking traffic. */
const WARM_UP_WAIT_MS = 5_000;

/** Starts the server: configuration, database and migrations, then the HTTP parts and workers. */
export async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`hop-server: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const db = await openDatabase(config);
  await migrate(db);
  // Before anything is served: a process that disagrees with the fleet would break it quietly.
  // It joins before the app's logger exists: what it says later (after a lost database session) goes to stderr.
  const fleetLog = { error: (o: { err?: unknown }, m: string) => process.stderr.write(`hop-server: ${m}: ${String(o.err)}\n`) };
  const fleet = await joinFleet(db, config, loadSecret(config), fleetLog).catch(async (err) => {
    await db.close();
    throw err;
  });
  const log = { error: (o: object, m: string) => app.log.error(o, m), warn: (o: object, m: string) => app.log.warn(o, m) };
  const services = createServices(config, db, { log });
  const metrics = createMetrics(services);
  const pretty = wantsPrettyLogs(config);
  const app = await buildApp(config, services, { metrics, ...(pretty ? { logStream: createPrettyLog() } : {}) });
  const connections = connectionDrain(app.server);
  if (!pretty) {
    app.log.info(config.databaseUrl ? 'database: PostgreSQL (DATABASE_URL)' : `database: embedded PGlite in ${config.dataDir} (set DATABASE_URL for PostgreSQL)`);
    const { mode, signup } = modeReport(config);
    app.log.info(`mode: ${mode}; sign-up: ${signup}`);
  }
  // Another process changed a link: drop it from this process's redirect cache.
  await db.listen(LINK_CHANGED_CHANNEL, (linkId) => services.linkChanged(linkId), () => {
    services.linkLookups.invalidate();
    services.linkCache.clear();
    services.qrTargets.clear();
  });
  // Another process added, verified or removed a custom domain: reload the redirector's host set.
  await db.listen(DOMAIN_CHANGED_CHANNEL, () => services.hostDomains.invalidate(), () => services.hostDomains.invalidate());
  // A workspace's plan or limits changed, here or in another process: its rate limits apply at once.
  await db.listen(PLAN_CHANGED_CHANNEL, (workspaceId) => services.rateLimits.planChanged(workspaceId), () => services.rateLimits.forgetPlans());
  services.clicks.start();

  await services.eventStreams.start();
  // On PostgreSQL the dispatcher runs in a thread of its own that yields the CPU to redirects; the
  // embedded database is one session that this process owns, so there it runs here. Click events
  // are produced from the click log where the dispatcher runs (in its thread on PostgreSQL), else
  // where the jobs run: a fleet needs one such process, and its producers take turns.
  let dispatcher: { stop(): Promise<void> } | undefined;
  let clickEvents: { stop(): Promise<void> } | undefined;
  const clickEventPollMs = Math.min(config.clickFlushMs, CLICK_EVENT_POLL_MS);
  const runsDispatcher = !config.disabled.has('dispatcher');
  if (runsDispatcher && config.databaseUrl) {
    dispatcher = await startDispatcherThread({
      databaseUrl: config.databaseUrl, secret: loadSecret(config), allowPrivateUrls: config.allowPrivateUrls,
      retryScale: config.webhookRetryScale, planMode: config.planMode,
      niceness: config.disabled.has('redirector') ? 0 : DISPATCHER_NICENESS, clickEventPollMs,
      clickEventsWhileBusy: config.clickEventsWhileBusy,
    }, log, services.deliveryOutcomes.addAll);
  } else {
    if (runsDispatcher) {
      await services.dispatcher.start();
      dispatcher = services.dispatcher;
    }
    if (runsDispatcher || !config.disabled.has('jobs')) {
      clickEvents = startClickEventLoop({ producer: services.clickEvents, pollMs: clickEventPollMs, log });
    }
  }

  const scheduler = createScheduler(db, app.log, metrics.jobRun);
  let linkHealthJob: { stop(): void } | undefined;
  if (!config.disabled.has('jobs')) {
    const retention = retentionJob(services.clock, services.plans);
    scheduler.every(60 * 60_000, retention);
    scheduler.every(config.expiryCheckMs, expiryJob({ clock: services.clock, outbox: services.outbox }));
    scheduler.dailyAtUtcMidnight(saltRotationJob(services.salts));
    const partitions = clickPartitionsJob(services.clock, services.plans);
    scheduler.every(60 * 60_000, partitions);
    scheduler.every(config.clickFlushMs, clickAggregationJob({ flushMs: config.clickFlushMs, waitForClicks: db.kind === 'postgres' }));
    void runExclusive(db, partitions).catch((err) => app.log.error({ err }, 'click partitions job failed'));
    void runExclusive(db, retention).catch((err) => app.log.error({ err }, 'retention job failed'));
    linkHealthJob = startLinkHealthJob({ db, health: services.linkHealth, intervalMs: config.linkCheckMs, log: app.log, onRun: metrics.jobRun });
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      const drained = connections.drain(); // refuses new connections from now on
      scheduler.stop();
      linkHealthJob?.stop();
      await services.eventStreams.stop(); // ends live streams, which would otherwise hold the drain
      await drained; // answers what was sent, closes every connection without a reset
      await app.close();
      await clickEvents?.stop(); // lets a run in progress commit
      await dispatcher?.stop(); // lets attempts in flight finish and be recorded
      await services.clicks.stop(); // writes buffered clicks
      await services.rateLimits.close();
      await fleet?.leave();
      await db.close();
      clearTimeout(force);
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // The links most likely to be visited go into the redirect cache before the first visit.
  const warmed = config.disabled.has('redirector') || config.warmUpLinks === 0 ? undefined : await startWarmUp({
    cache: services.linkCache, links: services.redirectLinks, maxLinks: config.warmUpLinks, waitMs: WARM_UP_WAIT_MS, log: app.log,
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    throw listenFailure(err, config) ?? err;
  }
  if (pretty) process.stdout.write(`${greeting(config, warmed).join('\n')}\n`);
}
