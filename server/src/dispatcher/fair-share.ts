/**
 * Fair delivery: how many attempts one dispatcher process has in flight per endpoint host and per
 * workspace, so that an endpoint that hangs (30 s per attempt) holds only its own slots and
 * another workspace's events go out meanwhile.
 *
 * Each host's limit adapts, as TCP's window does: it starts at 4, grows by one for every 2xx
 * answered quickly (doubling per round trip) until the first sign of strain, then by one per
 * round trip, up to 64; a 429, a 5xx, a timeout or a connection error halves it, down to 4 (at most
 * once per round trip, so a burst of failures in flight counts once), and a `Retry-After` pauses the host
 * until then. A fast receiver so reaches 64 in flight within a few hundred deliveries; a slow or
 * failing one keeps a few.
 *
 * A process claims up to four times a host's limit (and a workspace's): the attempts in flight and
 * three times as many queued behind them, so an answer is followed by the next attempt at once, and
 * a fast endpoint still has attempts waiting when the claim's round trip to a busy database takes
 * longer than several of its answers.
 *
 * The host of an endpoint is its URL's authority, lower-cased: host name (or IP literal) and port
 * as written (`hooks.example.test:8443`), so two ports of one machine are two endpoints and two
 * names for one address are two endpoints. The same expression runs in SQL (ENDPOINT_HOST_SQL),
 * so the claim gives each host only the slots it has left.
 */
export const INITIAL_PER_HOST = 4;
export const MAX_PER_HOST = 64;
/** Never below where it starts: a failing endpoint keeps the 4 it always had, its retries no slower. */
const MIN_PER_HOST = INITIAL_PER_HOST;
/** Claimed per host (and workspace, and process): those in flight and three times as many queued in the process. */
export const PREFETCH = 4;
/** Attempts in flight and queued at once per process: eight full hosts' 64 in flight, or two with their queues. */
export const SLOTS = 512;
/**
 * In flight per workspace: a full host's. Claimed, with its queue, half the slots: a workspace with
 * webhooks on many slow hosts still leaves half to the others.
 */
export const MAX_PER_WORKSPACE = SLOTS / 2 / PREFETCH;
/** A 2xx slower than this is no reason to send more at once. */
const FAST_MS = 1_000;
/** The longest pause a Retry-After can ask of a host. */
const MAX_PAUSE_MS = 3_600_000;

export const ENDPOINT_HOST_SQL = (url: string) => `lower(substring(${url} from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)'))`;

export interface Slot {
  host: string;
  workspaceId: string;
}

/** What an attempt came to, as far as the endpoint's capacity goes. */
export interface Answer {
  statusCode: number | null;
  durationMs: number;
  /** The endpoint gave no answer in time, or the connection failed (not a refusal by the rules). */
  transportError: boolean;
  retryAfterSeconds?: number | null;
}


interface HostState {
  inFlight: number;
  queued: number;
  limit: number;
  /** Growing by one per fast 2xx until the first strain; by one per round trip after. */
  slowStart: boolean;
  /** Fractional growth in congestion avoidance. */
  credit: number;
  /** Attempts started before this count; a failure among them does not halve again. */
  started: number;
  shrunkAt: number;
  pausedUntil: number;
}

export function createFairShare(now: () => number = Date.now) {
  const hosts = new Map<string, HostState>();
  const workspaces = new Map<string, { inFlight: number; queued: number }>();
  const ws = (key: string) => workspaces.get(key) ?? workspaces.set(key, { inFlight: 0, queued: 0 }).get(key)!;
  const forgetWs = (key: string) => {
    const w = workspaces.get(key);
    if (w && w.inFlight === 0 && w.queued === 0) workspaces.delete(key);
  };
  const host = (key: string) => {
    let h = hosts.get(key);
    if (!h) hosts.set(key, (h = { inFlight: 0, queued: 0, limit: INITIAL_PER_HOST, slowStart: true, credit: 0, started: 0, shrunkAt: -1, pausedUntil: 0 }));
    return h;
  };
  /** A host back at its defaults, idle, is forgotten (a fleet meets many hosts). */
  const forget = (key: string, h: HostState) => {
    if (h.inFlight === 0 && h.queued === 0 && h.limit === INITIAL_PER_HOST && h.slowStart && h.pausedUntil <= now()) hosts.delete(key);
  };

  return {
    /** A claimed delivery waits in the process for a slot. */
    queue(s: Slot) {
      host(s.host).queued++;
      ws(s.workspaceId).queued++;
    },
    /** Whether a queued delivery may start now: its host and workspace below their limits, the host not paused. */
    canStart(s: Slot): boolean {
      const h = host(s.host);
      return h.inFlight < h.limit && h.pausedUntil <= now() && ws(s.workspaceId).inFlight < MAX_PER_WORKSPACE;
    },
    /** Whether the host asked to be left alone (Retry-After) until a time: that time, or 0. */
    pausedUntil: (key: string) => {
      const until = hosts.get(key)?.pausedUntil ?? 0;
      return until > now() ? until : 0;
    },
    /** A queued delivery leaves the queue (to start, or handed back to the database). */
    unqueue(s: Slot) {
      host(s.host).queued--;
      ws(s.workspaceId).queued--;
      forget(s.host, host(s.host));
      forgetWs(s.workspaceId);
    },
    /** Takes a slot; answers the attempt's number on its host, which `give` hands back. */
    take(s: Slot): number {
      const h = host(s.host);
      h.inFlight++;
      ws(s.workspaceId).inFlight++;
      return h.started++;
    },
    /** Frees the slot and adapts the host's limit to how the attempt went (no answer: nothing sent). */
    give(s: Slot, seq: number, answer?: Answer) {
      const h = host(s.host);
      h.inFlight--;
      ws(s.workspaceId).inFlight--;
      forgetWs(s.workspaceId);
      if (answer) adapt(h, seq, answer);
      forget(s.host, h);
    },
    limitOf: (key: string) => hosts.get(key)?.limit ?? INITIAL_PER_HOST,
    /** What the claim must respect: each known host's and workspace's room for more claimed deliveries. */
    state() {
      const t = now();
      const rows: { kind: string; key: string; n: number; cap: number }[] = [];
      for (const [key, h] of hosts) rows.push({ kind: 'host', key, n: h.inFlight + h.queued, cap: h.pausedUntil > t ? 0 : h.limit * PREFETCH });
      for (const [key, w] of workspaces) rows.push({ kind: 'ws', key, n: w.inFlight + w.queued, cap: MAX_PER_WORKSPACE * PREFETCH });
      return JSON.stringify(rows);
    },
  };

  function adapt(h: HostState, seq: number, a: Answer) {
    const ok = a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;
    const strained = a.transportError || a.statusCode === 429 || (a.statusCode !== null && a.statusCode >= 500);
    if (a.retryAfterSeconds && (a.statusCode === 429 || a.statusCode === 503)) {
      h.pausedUntil = Math.max(h.pausedUntil, now() + Math.min(a.retryAfterSeconds * 1000, MAX_PAUSE_MS));
    }
    if (strained) {
      // Attempts that started before the last halving saw the old limit: they do not halve it again.
      if (seq < h.shrunkAt) return;
      h.limit = Math.max(MIN_PER_HOST, Math.floor(h.limit / 2));
      h.slowStart = false;
      h.credit = 0;
      h.shrunkAt = h.started;
    } else if (ok && a.durationMs < FAST_MS && h.limit < MAX_PER_HOST && h.inFlight + 1 >= h.limit / 2) {
      // Grows only while the limit is in use: an endpoint sent a trickle proves nothing about a flood.
      if (h.slowStart) h.limit++;
      else if ((h.credit += 1 / h.limit) >= 1) {
        h.credit = 0;
        h.limit++;
      }
    }
  }
}

export type FairShare = ReturnType<typeof createFairShare>;
