import { createHash } from 'node:crypto';
import type { Plan } from '@hop/shared';
import { PLANS } from '@hop/shared';
import type { Database } from '../../db/database.js';
import { PLAN_LIMITS } from '../plans/plan-limits.js';
import type { PlanMode } from '../plans/plan-mode.js';
import type { Bucket, BucketStatus, Decision, RateLimiter } from './rate-limiter.js';
import { addressKey as clientAddressKey } from '../net/address-key.js';

/** Requests per window; enterprise workspaces may carry the operator's own. */
export interface RequestLimits {
  perHour: number;
  perMinute: number;
}

/**
 * Callers without a credential (sign-up, log-in), counted per client address: enough for a person
 * and a script that logs in once, tight enough to slow password guessing.
 */
export const ANONYMOUS_LIMITS: RequestLimits = { perHour: 300, perMinute: 30 };

/**
 * Wrong device-flow user codes, per address and per signed-in user: a person mistypes a code
 * once or twice; more is someone trying codes until one names another person's device.
 */
export const DEVICE_CODE_GUESS_LIMITS: RequestLimits = { perHour: 20, perMinute: 5 };

/**
 * OIDC ID tokens exchanged for CI tokens (RFC 8693 at the token endpoint), per address: a job
 * exchanges once or a few times, and a pool of runners behind one address runs dozens of jobs a
 * minute at most; more is someone trying tokens.
 */
export const CI_TOKEN_EXCHANGE_LIMITS: RequestLimits = { perHour: 600, perMinute: 60 };

/** Device authorizations started (`POST /v1/oauth/device/code`), per address and client. */
export const DEVICE_CODE_START_LIMITS: RequestLimits = { perHour: 60, perMinute: 10 };

export interface RateLimitSettings {
  /** Off only for benchmarks (HOP_RATE_LIMITS=off). */
  enabled: boolean;
  /** Multiplies every request limit (HOP_RATE_LIMIT_SCALE; the shared test server runs at 1000). */
  scale: number;
  /** Multiplies both window lengths (HOP_RATE_LIMIT_WINDOW_SCALE; tests that wait for a reset). */
  windowScale: number;
}

interface PlanRow {
  plan: Plan;
  rate_limit_per_hour: number | null;
  rate_limit_per_minute: number | null;
}

/**
 * docs/api.md, Limits: the plan's row; enterprise takes the operator's values when set (default:
 * business). Null: the plan has no request limit (self-hosted).
 */
export function requestLimitsOf(row: PlanRow): RequestLimits | null {
  if (row.plan === 'enterprise' && row.rate_limit_per_hour != null && row.rate_limit_per_minute != null) {
    return { perHour: row.rate_limit_per_hour, perMinute: row.rate_limit_per_minute };
  }
  const l = PLAN_LIMITS[row.plan];
  return l.requestsPerHour === null || l.requestsPerMinute === null ? null : { perHour: l.requestsPerHour, perMinute: l.requestsPerMinute };
}

/** Each window at its most generous (an enterprise row may be generous in one only); null, no limit, wins. */
const mostGenerous = (a: RequestLimits | null, b: RequestLimits | null): RequestLimits | null =>
  a && b ? { perHour: Math.max(a.perHour, b.perHour), perMinute: Math.max(a.perMinute, b.perMinute) } : null;

/**
 * A safety net should a notification ever be missed: a plan or limit change reaches every process
 * at once by NOTIFY on this channel (a trigger on workspaces), and the process making it at once.
 */
const CACHE_MS = 10_000;
export const PLAN_CHANGED_CHANNEL = 'hop_plan_changed';

/** Who is asking, as the API layer knows it after authentication. */
export interface Caller {
  credentialId: string;
  userId: string;
  /** The one workspace the credential is bound to (an API key, a third-party OAuth token). */
  boundWorkspaceId?: string;
  /** The workspace the request acts in, however the route named it; unset outside any. */
  workspaceId?: string;
  /** Its plan when the request already loaded it (membership), saving a lookup. */
  plan?: Plan;
}

/**
 * The plan rate limits (docs/api.md, Limits): which buckets a request counts against and with what limits;
 * the counting itself is the limiter's (rate-limiter.ts), over any counter store.
 */
export function createRateLimitsService(deps: {
  db: Database;
  limiter: RateLimiter;
  settings: RateLimitSettings;
  /** Keys addresses, so that no raw IP reaches the counter store. */
  secret: string;
  /** How a workspace's stored plan reads (HOP_PLANS). */
  plans: PlanMode;
  now?: () => number;
}) {
  const { db, limiter, settings, plans } = deps;
  const now = deps.now ?? Date.now;
  const workspaceCache = new Map<string, { at: number; row: PlanRow }>();
  const userCache = new Map<string, { at: number; plan: Plan; limits: RequestLimits | null }>();

  const scaled = (n: number) => Math.max(1, Math.round(n * settings.scale));
  const windows = { minute: 60_000 * settings.windowScale, hour: 3_600_000 * settings.windowScale };

  function buckets(key: string, limits: RequestLimits | null): Bucket[] {
    if (!limits) return [];
    return [
      { key, limit: scaled(limits.perMinute), window: '1m', windowMs: windows.minute },
      { key, limit: scaled(limits.perHour), window: '1h', windowMs: windows.hour },
    ];
  }

  /** The plan of an account in no workspace (and of a workspace that is gone): free, as the mode reads it. */
  const outsideAny: PlanRow = { plan: plans.planOf('free'), rate_limit_per_hour: null, rate_limit_per_minute: null };

  async function workspaceRow(workspaceId: string): Promise<PlanRow> {
    const hit = workspaceCache.get(workspaceId);
    if (hit && now() - hit.at < CACHE_MS) return hit.row;
    const [row] = await db.query<PlanRow>(
      `select ${plans.planSql('plan')} as plan, rate_limit_per_hour, rate_limit_per_minute from workspaces where id = $1`,
      [workspaceId],
    );
    const found = row ?? outsideAny;
    if (workspaceCache.size > 10_000) workspaceCache.clear();
    workspaceCache.set(workspaceId, { at: now(), row: found });
    return found;
  }

  /** Requests outside any workspace: the best plan among the caller's workspaces (free without any). */
  async function bestOfUser(userId: string): Promise<{ plan: Plan; limits: RequestLimits | null }> {
    const hit = userCache.get(userId);
    if (hit && now() - hit.at < CACHE_MS) return hit;
    const rows = await db.query<PlanRow>(
      `select ${plans.planSql('w.plan')} as plan, w.rate_limit_per_hour, w.rate_limit_per_minute from workspaces w
       join memberships m on m.workspace_id = w.id where m.user_id = $1`,
      [userId],
    );
    const all = [outsideAny, ...rows];
    const plan = all.reduce<Plan>((p, r) => (PLANS.indexOf(r.plan) > PLANS.indexOf(p) ? r.plan : p), outsideAny.plan);
    const limits = all.map(requestLimitsOf).reduce(mostGenerous);
    const best = { plan, limits };
    if (userCache.size > 10_000) userCache.clear();
    const entry = { at: now(), ...best };
    userCache.set(userId, entry);
    return entry;
  }

  async function limitsOfWorkspace(workspaceId: string, knownPlan?: Plan): Promise<{ plan: Plan; limits: RequestLimits | null }> {
    // Only enterprise rows carry limits of their own; other plans need no lookup when known.
    const row = knownPlan && knownPlan !== 'enterprise' ? { plan: knownPlan, rate_limit_per_hour: null, rate_limit_per_minute: null } : await workspaceRow(workspaceId);
    return { plan: row.plan, limits: requestLimitsOf(row) };
  }

  const allow: Decision = { allowed: true, status: null };
  // Hashed, so no raw address reaches the counter store; an IPv6 client counts by its /64.
  const addressKey = (ip: string) => createHash('sha256').update(`${deps.secret}\u0000${clientAddressKey(ip)}`).digest('base64url').slice(0, 22);
  const deviceGuessBuckets = (ip: string, userId: string | null) => [
    ...buckets(`device-guess-ip:${addressKey(ip)}`, DEVICE_CODE_GUESS_LIMITS),
    ...(userId ? buckets(`device-guess-user:${userId}`, DEVICE_CODE_GUESS_LIMITS) : []),
  ];

  return {
    settings,

    /**
     * Counts a request with a credential: per credential and per workspace it acts in, both
     * windows. The workspace's bucket has that workspace's plan. The credential's bucket keeps one
     * limit whatever workspace a request names (a bucket whose limit changed from one request to
     * the next would report a Remaining that is not true): its bound workspace's plan, or the best
     * plan among the user's workspaces for credentials that act in all of them (docs/api.md, Limits).
     */
    async consumeCaller(caller: Caller): Promise<Decision> {
      if (!settings.enabled) return allow;
      const own = caller.boundWorkspaceId
        ? await limitsOfWorkspace(caller.boundWorkspaceId, caller.boundWorkspaceId === caller.workspaceId ? caller.plan : undefined)
        : await bestOfUser(caller.userId);
      const list = buckets(`cred:${caller.credentialId}`, own.limits);
      if (caller.workspaceId) {
        const ws = caller.workspaceId === caller.boundWorkspaceId ? own : await limitsOfWorkspace(caller.workspaceId, caller.plan);
        list.push(...buckets(`ws:${caller.workspaceId}`, ws.limits));
      }
      return list.length ? limiter.consume(list) : allow;
    },

    /** Counts a request without a credential, per client address (hashed). */
    async consumeAnonymous(ip: string): Promise<Decision> {
      if (!settings.enabled) return allow;
      return limiter.consume(buckets(`ip:${addressKey(ip)}`, ANONYMOUS_LIMITS));
    },

    /** Counts an ID token exchange per address, before the token is verified. */
    async consumeCiTokenExchange(ip: string): Promise<Decision> {
      if (!settings.enabled) return allow;
      return limiter.consume(buckets(`ci-exchange:${addressKey(ip)}`, CI_TOKEN_EXCHANGE_LIMITS));
    },

    /** Counts an operator request (X-Admin-Token) per address, before its token is compared. */
    async consumeAdminAttempt(ip: string): Promise<Decision> {
      if (!settings.enabled) return allow;
      return limiter.consume(buckets(`admin:${addressKey(ip)}`, ANONYMOUS_LIMITS));
    },

    /**
     * Counts a `GET /metrics` per address before its token is compared, as operator requests are.
     * /metrics must answer while the database stalls, which is when its figures matter most: a
     * count the counter store has not answered within `waitMs` lets the request through, as a
     * store that is down does (the count still lands once the store answers).
     */
    async consumeMetricsAttempt(ip: string, waitMs: number): Promise<Decision> {
      if (!settings.enabled) return allow;
      const counting = limiter.consume(buckets(`metrics:${addressKey(ip)}`, ANONYMOUS_LIMITS));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<Decision>((resolve) => (timer = setTimeout(resolve, waitMs, allow)));
      try {
        return await Promise.race([counting, late]);
      } finally {
        clearTimeout(timer);
      }
    },

    /** Counts a device authorization started from this address by this client. */
    async consumeDeviceCodeStart(ip: string, clientId: string): Promise<Decision> {
      if (!settings.enabled) return allow;
      return limiter.consume(buckets(`device-start:${addressKey(ip)}:${clientId}`, DEVICE_CODE_START_LIMITS));
    },

    /**
     * Whether this address and user may try another device user code: refused once either has
     * used up its wrong guesses. Only wrong codes count (`countWrongDeviceCode`).
     */
    async deviceCodeGuessAllowed(ip: string, userId: string | null): Promise<Decision> {
      if (!settings.enabled) return allow;
      const statuses = await limiter.peek(deviceGuessBuckets(ip, userId));
      const refusing = statuses.find((st) => st.remaining < 1);
      return refusing ? { allowed: false, status: refusing } : allow;
    },

    /** A user code that named no pending request: one wrong guess for the address and the user. */
    async countWrongDeviceCode(ip: string, userId: string | null): Promise<void> {
      if (settings.enabled) await limiter.consume(deviceGuessBuckets(ip, userId));
    },

    /**
     * The workspace's plan, limits and where its request counters stand (GET .../usage); limits
     * and counters are null when the plan has no request limit.
     */
    async usage(workspaceId: string): Promise<{ plan: Plan; limits: RequestLimits | null; windows: { hour: BucketStatus; minute: BucketStatus } | null }> {
      workspaceCache.delete(workspaceId);
      const { plan, limits } = await limitsOfWorkspace(workspaceId);
      if (!limits) return { plan, limits: null, windows: null };
      const effective = { perHour: scaled(limits.perHour), perMinute: scaled(limits.perMinute) };
      const [minute, hour] = await limiter.peek(buckets(`ws:${workspaceId}`, limits));
      return { plan, limits: effective, windows: { hour, minute } };
    },

    /** A plan or its limits changed (here, or in another process by NOTIFY): forget what this process cached of it. */
    planChanged(workspaceId: string) {
      workspaceCache.delete(workspaceId);
      userCache.clear();
    },

    /** Notifications may have been missed (the listening connection came back): forget every plan. */
    forgetPlans() {
      workspaceCache.clear();
      userCache.clear();
    },

    close: () => limiter.close(),
  };
}

export type RateLimitsService = ReturnType<typeof createRateLimitsService>;
