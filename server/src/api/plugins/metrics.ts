import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { createRouteHistogram } from './route-histogram.js';
import { limitMetrics } from './rate-limits.js';
import type { Services } from '../../services.js';
import { pendingClicks } from '../../domain/clicks/click-aggregation.js';
import { registerLookupMetrics } from './lookup-metrics.js';
import { deliveryLagSeconds, pendingDeliveries } from '../../domain/webhooks/delivery-backlog.js';
import { DELIVERY_OUTCOMES } from '../../dispatcher/delivery-outcomes.js';

/**
 * A gauge read from the database gets this long, then keeps its last value, and the request's
 * rate-limit count gets as long: /metrics answers while the database stalls, which is when its
 * other figures (the oldest link lookup's age, the click write's) matter most.
 */
const DATABASE_GAUGE_MS = 1000;

/** Reads for gauges, each given DATABASE_GAUGE_MS once it has a value to keep (until then it waits). */
function timedReads() {
  const answered = new Set<string>();
  return async <T>(gauge: string, read: Promise<T>): Promise<T | undefined> => {
    if (!answered.has(gauge)) {
      const value = await read;
      answered.add(gauge);
      return value;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, DATABASE_GAUGE_MS, undefined)));
    read.catch(() => {}); // a read that fails after its time is up is of no interest
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * What `GET /metrics` reports, in Prometheus' text format (prom-client): request rates and
 * latencies by route, the redirect cache's hits and misses, the click buffer's depth, the clicks
 * waiting for the aggregation job, the deliveries waiting and their lag, delivery attempts by
 * outcome, and job runs. It holds no secret and no personal data, but is served only to the
 * operator's token (below).
 */
export function createMetrics(services: Services) {
  const registry = new Registry();
  const inTime = timedReads();
  collectDefaultMetrics({ register: registry, prefix: 'hop_process_' });

  const requests = new Counter({
    name: 'hop_http_requests_total', help: 'HTTP requests by route, method and status', registers: [registry],
    labelNames: ['route', 'method', 'status'],
    collect: () => syncFastPath(),
  });
  const latency = createRouteHistogram({
    name: 'hop_http_request_duration_seconds', help: 'HTTP request latency by route',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  });
  registry.registerMetric(latency as unknown as Metric);
  new Gauge({
    name: 'hop_redirect_cache_entries', help: 'Links held in this process\'s redirect cache', registers: [registry],
    collect() { this.set(services.linkCache.stats().size); },
  });
  new Gauge({
    name: 'hop_redirect_cache_lookups', help: 'Redirect cache lookups since start, by result', registers: [registry],
    labelNames: ['result'],
    collect() {
      const s = services.linkCache.stats();
      this.set({ result: 'hit' }, s.hits);
      this.set({ result: 'miss' }, s.misses);
    },
  });
  registerLookupMetrics(registry, services.linkLookups);
  new Gauge({
    name: 'hop_click_buffer_depth', help: 'Visits waiting to be written', registers: [registry],
    collect() { this.set(services.clicks.depth); },
  });
  new Gauge({
    name: 'hop_click_spool_bytes', help: 'Bytes of visits spooled to disk while the database was unreachable', registers: [registry],
    collect() { this.set(services.clicks.spooledBytes); },
  });
  new Gauge({
    name: 'hop_click_write_seconds',
    help: 'Seconds the batch of clicks being written has taken (0 when none is): one that keeps growing is stuck',
    registers: [registry],
    collect() { this.set(services.clicks.flushSeconds); },
  });
  new Gauge({
    name: 'hop_click_spool_full', help: '1 while the click spool is full (HOP_CLICK_SPOOL_MAX_BYTES)', registers: [registry],
    collect() { this.set(services.clicks.spoolFull ? 1 : 0); },
  });
  new Gauge({
    name: 'hop_click_rollup_pending',
    help: 'Clicks in the log not yet rolled up into analytics (whole database; ids a rolled-back batch left unused count too)',
    registers: [registry],
    async collect() {
      const pending = await inTime('rollup', pendingClicks(services.db));
      if (pending) this.set(pending.clicks);
    },
  });
  new Gauge({
    name: 'hop_click_counters_pending',
    help: 'Clicks rolled up but not yet added to their links\' counters (each run of the aggregation job counts what it rolls up)',
    registers: [registry],
    async collect() {
      const pending = await inTime('counters', pendingClicks(services.db));
      if (pending) this.set(pending.uncounted);
    },
  });
  new Gauge({
    name: 'hop_click_events_pending',
    help: 'Clicks in the log the click event producer has yet to read (whole database; ids a rolled-back batch left unused count too)',
    registers: [registry],
    async collect() {
      const pending = await inTime('click-events', services.clickEvents.pending());
      if (pending !== undefined) this.set(pending);
    },
  });
  new Gauge({
    name: 'hop_webhook_deliveries',
    help: 'Webhook deliveries waiting to be sent, due or scheduled for a retry (whole database): the backlog',
    registers: [registry], labelNames: ['status'],
    async collect() {
      const pending = await inTime('deliveries', pendingDeliveries(services.db));
      if (pending !== undefined) this.set({ status: 'pending' }, pending);
    },
  });
  new Gauge({
    name: 'hop_webhook_delivery_lag_seconds', help: 'Age of the oldest delivery that is due and not yet sent', registers: [registry],
    async collect() {
      const lag = await inTime('delivery-lag', deliveryLagSeconds(services.db));
      if (lag !== undefined) this.set(lag);
    },
  });
  // How deliveries end is counted as they end, by the process whose dispatcher recorded them (its
  // thread reports to this one): counting them in the table would read its 30 days of history at
  // every scrape.
  const attempts = new Counter({
    name: 'hop_webhook_delivery_attempts_total',
    help: `Webhook delivery attempts this process's dispatcher recorded, by outcome (${DELIVERY_OUTCOMES.join(', ')})`,
    registers: [registry], labelNames: ['outcome'],
    collect: () => syncOutcomes(),
  });
  const outcomesCounted = { ...services.deliveryOutcomes.counts };
  for (const outcome of DELIVERY_OUTCOMES) attempts.inc({ outcome }, outcomesCounted[outcome]);
  function syncOutcomes() {
    for (const outcome of DELIVERY_OUTCOMES) {
      const more = services.deliveryOutcomes.counts[outcome] - outcomesCounted[outcome];
      if (more === 0) continue;
      attempts.inc({ outcome }, more);
      outcomesCounted[outcome] += more;
    }
  }

  const jobRuns = new Counter({
    name: 'hop_job_runs_total', help: 'Background job runs in this process, by job and outcome (skipped: another process held the lock)',
    registers: [registry], labelNames: ['job', 'outcome'],
  });
  const jobDuration = new Histogram({
    name: 'hop_job_duration_seconds', help: 'Background job run time, by job', registers: [registry],
    labelNames: ['job'], buckets: [0.01, 0.05, 0.25, 1, 5, 30, 120],
  });
  // The redirector's fast path answers before Fastify (redirector/fast-redirect.ts): its visits
  // count under the same route as the Fastify one. It counts them itself, a plain number, and the
  // counters catch up when scraped: two prom-client increments per visit would be a measurable
  // part of a redirect's CPU.
  const fastRequests = requests.labels({ route: '/:slug', method: 'GET', status: '302' });
  const fastLatency = latency.series('/:slug');
  const fastVisits = new Counter({
    name: 'hop_redirect_fast_path_total', help: 'Visits answered before routing (a plain cached link); the rest go through the router',
    registers: [registry],
    collect: () => syncFastPath(),
  });
  let fastCounted = 0;
  function syncFastPath() {
    const served = services.fastRedirect.served;
    if (served === fastCounted) return;
    fastVisits.inc(served - fastCounted);
    fastRequests.inc(served - fastCounted);
    fastCounted = served;
  }
  services.fastRedirect.observe((startedAt) => {
    fastLatency.observe((performance.now() - startedAt) / 1000);
  });

  return {
    registry,
    observeRequest(route: string, method: string, status: number, seconds: number) {
      requests.inc({ route, method, status: String(status) });
      latency.observe(route, seconds);
    },
    jobRun(job: string, outcome: 'ran' | 'skipped' | 'failed', seconds: number) {
      jobRuns.inc({ job, outcome });
      if (outcome !== 'skipped') jobDuration.observe({ job }, seconds);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const sameToken = (given: string, expected: string) => {
  // Compared as digests, so neither the length nor a prefix leaks through timing.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
};

/**
 * The request hook that feeds the metrics, and `GET /metrics`, which answers only to
 * `Authorization: Bearer <HOP_METRICS_TOKEN>` (route names, queue depths and process figures are
 * reconnaissance for an attacker); without a configured token it does not exist (404).
 */
export async function metricsRoutes(app: FastifyInstance, opts: { metrics: Metrics; token?: string; services: Services }) {
  const { metrics, token } = opts;
  const { registry } = metrics;
  app.addHook('onResponse', async (req, reply) => {
    // The route's pattern, never the raw path: slugs and ids would make unbounded label sets.
    metrics.observeRequest(req.routeOptions.url ?? 'unmatched', req.method, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    if (!token) return sendError(reply, 'NOT_FOUND', 'no route GET /metrics', { resource: 'route' });
    await limitMetrics(opts.services, req, reply, DATABASE_GAUGE_MS);
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!bearer || !sameToken(bearer, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(reply, 'UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <HOP_METRICS_TOKEN>');
    }
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
