import { isIP } from 'node:net';
import { z } from 'zod';
import { ASSIGNABLE_PLANS, HttpUrlSettingSchema, SIGNUP_MODES, type AssignablePlan, type SignupMode } from '@hop/shared';
import { BUSY_PER_SECOND } from './domain/events/click-event-loop.js';

const hostPort = z.string().regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, 'must be host or host:port');
/** A resolver address as node's dns accepts it: `ip`, `ip:port` or `[ipv6]:port`. */
const isDnsServer = (s: string) => {
  const m = /^\[(.+)\]:(\d{1,5})$/.exec(s) ?? /^([^:]+):(\d{1,5})$/.exec(s);
  return m ? isIP(m[1]) !== 0 && Number(m[2]) <= 65535 : isIP(s) !== 0;
};

/**
 * The environment, per docs/api.md, Operating the server. Parsed once at start; a wrong value stops
 * the server. Every key has a row in the README's configuration table (test/contract/readme-config.test.ts).
 */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  HOP_DATA_DIR: z.string().min(1).default('./.hop-data'),
  HOP_BASE_URL: HttpUrlSettingSchema.optional(),
  HOP_SHORT_DOMAIN: hostPort.optional(),
  HOP_SHORT_SCHEME: z.enum(['http', 'https']).optional(),
  HOP_DASHBOARD_URL: HttpUrlSettingSchema.optional(),
  HOP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  HOP_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Bearer token that GET /metrics requires; unset, /metrics answers 404. */
  HOP_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces').optional(),
  /**
   * `off` (default): self-hosted, every feature and no quota in every workspace. `on`: the plans
   * and their limits apply (docs/api.md, Self-hosting).
   */
  HOP_PLANS: z.enum(['off', 'on']).default('off'),
  /** The plan of new workspaces when HOP_PLANS=on (kept, unused, while plans are off). */
  HOP_DEFAULT_PLAN: z.enum(ASSIGNABLE_PLANS).default('free'),
  /** Who may sign up: `open` (default), `invite` (with a workspace invite only) or `closed`; the first account always may. */
  HOP_SIGNUP: z.enum(SIGNUP_MODES).default('open'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  HOP_GEO_HEADER: z.string().regex(/^[A-Za-z0-9-]+$/).optional(),
  HOP_TRUST_PROXY: z.string().optional(),
  HOP_ALLOW_PRIVATE_URLS: z.enum(['0', '1', 'true', 'false']).optional(),
  HOP_DNS_SERVERS: z
    .string()
    .refine((v) => v.split(',').map((s) => s.trim()).filter(Boolean).every(isDnsServer), 'must be comma-separated IP addresses, each with an optional :port')
    .optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// URL').optional(),
  /** A MaxMind-format country database to use instead of the bundled DB-IP Lite one. */
  HOP_GEOIP_DB: z.string().min(1).optional(),
  /** Multiplies the webhook retry schedule (2, 8, 32, 128 s); tests run it at e.g. 0.01. */
  HOP_WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  /** How often the expiry job looks for links past expiresAt (default 5 minutes). */
  HOP_EXPIRY_CHECK_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
  /**
   * How often destinations are checked (default daily). The first sweep is one interval after
   * start, never at start; at least 10 s, for tests of the sweep itself.
   */
  HOP_LINK_CHECK_MS: z.coerce.number().int().min(10_000).max(30 * 86_400_000).default(86_400_000),
  /** Pause between two checks of one destination host during a sweep (default 1 s). */
  HOP_LINK_CHECK_HOST_SPACING_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** Parts of the server to switch off, comma-separated: api, redirector, dispatcher, jobs. */
  HOP_DISABLE: z.string().regex(/^[a-z,\s]*$/, 'a comma-separated list of api, redirector, dispatcher, jobs').optional(),
  HOP_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json` (pino's lines) or `pretty` (short lines); unset: pretty on a terminal, else JSON. */
  HOP_LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /**
   * Whether a process refuses to start when it disagrees with the others on its PostgreSQL database
   * on HOP_SECRET, the rate-limit store or the short domain: `off` only for a test harness that
   * runs unrelated servers on one database.
   */
  HOP_FLEET_CHECK: z.enum(['on', 'off']).default('on'),
  /** Plan rate limits (docs/api.md, Limits): `off` only for benchmarks that measure what they cost. */
  HOP_RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /** Multiplies every request limit; the shared test server runs at 1000 so suites fit in them. */
  HOP_RATE_LIMIT_SCALE: z.coerce.number().positive().max(1_000_000).default(1),
  /** Multiplies the minute and hour windows; tests that wait for a window to reset shorten them. */
  HOP_RATE_LIMIT_WINDOW_SCALE: z.coerce.number().positive().max(1).default(1),
  /** How often buffered clicks are written, in ms (at most every second, docs/api.md, The redirector). */
  HOP_CLICK_FLUSH_MS: z.coerce.number().int().min(10).max(1000).default(1000),
  /** Bytes the click spool (visits kept on disk while the database is unreachable) may hold. */
  HOP_CLICK_SPOOL_MAX_BYTES: z.coerce.number().int().min(0).default(1024 ** 3),
  /** Visits kept in memory when neither the database nor the spool takes them (default 200,000). */
  HOP_CLICK_BUFFER_MAX: z.coerce.number().int().min(1).default(200_000),
  /** How long a visit waits for its link's lookup before it answers 503 with Retry-After, in ms. */
  HOP_LINK_LOOKUP_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
  /** Links loaded into the redirect cache at start, most visited first (0: none; at most the cache's 50,000). */
  HOP_WARM_UP_LINKS: z.coerce.number().int().min(0).max(50_000).default(10_000),
  /** link.clicked and qr.scanned events produced a second while redirects keep the cores busy. */
  HOP_CLICK_EVENTS_WHILE_BUSY: z.coerce.number().int().min(1).max(1_000_000).default(BUSY_PER_SECOND),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  baseUrl: string;
  shortDomain: string;
  shortScheme: 'http' | 'https';
  dashboardUrl: string;
  secret?: string;
  adminToken?: string;
  metricsToken?: string;
  planMode: 'self-hosted' | 'plans';
  defaultPlan: AssignablePlan;
  signup: SignupMode;
  redisUrl?: string;
  geoHeader?: string;
  geoipDb?: string;
  trustProxy?: string;
  allowPrivateUrls: boolean;
  dnsServers: string[];
  smtpUrl?: string;
  logLevel: string;
  logFormat?: 'json' | 'pretty';
  clickFlushMs: number;
  clickSpoolMaxBytes: number;
  clickBufferMax: number;
  linkLookupTimeoutMs: number;
  warmUpLinks: number;
  clickEventsWhileBusy: number;
  webhookRetryScale: number;
  expiryCheckMs: number;
  linkCheckMs: number;
  linkCheckHostSpacingMs: number;
  disabled: Set<string>;
  fleetCheck: boolean;
  rateLimits: { enabled: boolean; scale: number; windowScale: number };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "unset", as they do in most shells and .env files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const baseUrl = (e.HOP_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const shortDomain = (e.HOP_SHORT_DOMAIN ?? `localhost:${e.PORT}`).toLowerCase();
  const shortHost = shortDomain.split(':')[0];
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.HOP_DATA_DIR,
    baseUrl,
    shortDomain,
    shortScheme: e.HOP_SHORT_SCHEME ?? (shortHost === 'localhost' || shortHost === '127.0.0.1' ? 'http' : 'https'),
    dashboardUrl: (e.HOP_DASHBOARD_URL ?? `${baseUrl}/app`).replace(/\/+$/, ''),
    secret: e.HOP_SECRET,
    adminToken: e.HOP_ADMIN_TOKEN,
    metricsToken: e.HOP_METRICS_TOKEN,
    planMode: e.HOP_PLANS === 'on' ? 'plans' : 'self-hosted',
    defaultPlan: e.HOP_DEFAULT_PLAN,
    signup: e.HOP_SIGNUP,
    redisUrl: e.REDIS_URL,
    geoHeader: e.HOP_GEO_HEADER?.toLowerCase(),
    geoipDb: e.HOP_GEOIP_DB,
    trustProxy: e.HOP_TRUST_PROXY,
    allowPrivateUrls: e.HOP_ALLOW_PRIVATE_URLS === '1' || e.HOP_ALLOW_PRIVATE_URLS === 'true',
    dnsServers: (e.HOP_DNS_SERVERS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    smtpUrl: e.SMTP_URL,
    logLevel: e.HOP_LOG_LEVEL,
    logFormat: e.HOP_LOG_FORMAT,
    clickFlushMs: e.HOP_CLICK_FLUSH_MS,
    clickSpoolMaxBytes: e.HOP_CLICK_SPOOL_MAX_BYTES,
    clickBufferMax: e.HOP_CLICK_BUFFER_MAX,
    linkLookupTimeoutMs: e.HOP_LINK_LOOKUP_TIMEOUT_MS,
    warmUpLinks: e.HOP_WARM_UP_LINKS,
    clickEventsWhileBusy: e.HOP_CLICK_EVENTS_WHILE_BUSY,
    webhookRetryScale: e.HOP_WEBHOOK_RETRY_SCALE,
    expiryCheckMs: e.HOP_EXPIRY_CHECK_MS,
    linkCheckMs: e.HOP_LINK_CHECK_MS,
    linkCheckHostSpacingMs: e.HOP_LINK_CHECK_HOST_SPACING_MS,
    disabled: new Set((e.HOP_DISABLE ?? '').split(',').map((p) => p.trim()).filter(Boolean)),
    fleetCheck: e.HOP_FLEET_CHECK === 'on',
    rateLimits: { enabled: e.HOP_RATE_LIMITS === 'on', scale: e.HOP_RATE_LIMIT_SCALE, windowScale: e.HOP_RATE_LIMIT_WINDOW_SCALE },
  };
}
