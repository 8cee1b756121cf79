/**
 * What the server says to a person at a terminal: where it is, where to go next, and its log as
 * short lines. Machines (a pipe, a log collector, HOP_LOG_FORMAT=json) get pino's JSON lines.
 */
import type { Config } from './config.js';
import { StartupError } from './startup-error.js';

/** Readable logs when a person watches: on a terminal unless HOP_LOG_FORMAT says otherwise. */
export function wantsPrettyLogs(config: Pick<Config, 'logFormat'>, stdoutIsTty = Boolean(process.stdout.isTTY)): boolean {
  return config.logFormat ? config.logFormat === 'pretty' : stdoutIsTty;
}

/** `listen()` failures an operator fixes in the environment, as one line naming the variable. */
export function listenFailure(err: unknown, config: Pick<Config, 'host' | 'port'>): StartupError | undefined {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') return new StartupError(`port ${config.port} is in use on ${config.host} (another Hop server?): stop it or set PORT`);
  if (code === 'EACCES') return new StartupError(`not allowed to listen on ${where}: choose a PORT above 1023 or run with the right to bind it`);
  if (code === 'EADDRNOTAVAIL') return new StartupError(`HOST ${config.host} is not an address of this machine: set HOST (default 127.0.0.1)`);
  return undefined;
}

/** The mode (HOP_PLANS) and who may sign up (HOP_SIGNUP), in words: for the greeting and the JSON log. */
export function modeReport(config: Pick<Config, 'planMode' | 'defaultPlan' | 'signup'>): { mode: string; signup: string } {
  const mode = config.planMode === 'self-hosted'
    ? 'self-hosted: every feature, no quotas (HOP_PLANS=on applies plans)'
    : `plans: each workspace's plan and its limits apply; new workspaces get ${config.defaultPlan} (HOP_DEFAULT_PLAN)`;
  const signup = {
    open: 'open to anyone (HOP_SIGNUP=invite or closed limits it)',
    invite: 'by workspace invite only (HOP_SIGNUP); the first account always may',
    closed: 'closed (HOP_SIGNUP); the first account always may',
  }[config.signup];
  return { mode, signup };
}

/**
 * The lines printed once the server listens, for a person at a terminal. `warmed`: what the
 * redirect cache's warm-up loaded before the server took traffic (null: still loading; undefined: off).
 */
export function greeting(
  config: Pick<Config, 'baseUrl' | 'dashboardUrl' | 'databaseUrl' | 'dataDir' | 'host' | 'port' | 'planMode' | 'defaultPlan' | 'signup'>,
  warmed?: { links: number; ms: number } | null,
): string[] {
  const { mode, signup } = modeReport(config);
  const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded, in ${config.dataDir} (set DATABASE_URL for PostgreSQL)`;
  const cache = warmed === undefined ? [] : [
    `  Redirects   ${warmed ? `${warmed.links.toLocaleString('en-US')} recently visited links cached in ${warmed.ms} ms` : 'warming the cache with recently visited links'} (HOP_WARM_UP_LINKS)`,
  ];
  const cliUrl = config.baseUrl === 'http://localhost:3000' ? [] : [`  export HOP_API_URL=${config.baseUrl}`];
  return [
    '',
    `Hop is running at ${config.baseUrl} (listening on ${config.host}:${config.port})`,
    `  Dashboard   ${config.dashboardUrl}`,
    `  API docs    ${config.baseUrl}/docs`,
    `  Database    ${database}`,
    ...cache,
    `  Mode        ${mode}`,
    `  Sign-up     ${signup}`,
    '',
    'Next, in another terminal:',
    ...cliUrl,
    '  ./bin/hop signup      create an account and log the CLI in',
    '  ./bin/hop login       or log in to an account you have',
    '',
    'Press Ctrl-C to stop. Log:',
  ];
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
// pino's own fields, and those of request logs, which the short line already shows.
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err']);

/**
 * pino's JSON lines as short lines: `12:03:04 GET /v1/me 200 3 ms`, `12:03:05 WARN message key=value`.
 * Fastify logs a request's method and path when it arrives and its status when it ends, so each
 * request's start is held (by request id) until its end.
 */
export function createPrettyLog(write: (line: string) => void = (line) => process.stdout.write(line)) {
  const started = new Map<string, string>();
  const format = (entry: Record<string, unknown>): string | undefined => {
    const msg = String(entry.msg ?? '');
    const req = entry.req as { method?: string; path?: string } | undefined;
    const reqId = String(entry.reqId ?? '');
    if (msg === 'incoming request') {
      started.set(reqId, `${req?.method ?? ''} ${req?.path ?? ''}`);
      return undefined;
    }
    // What the greeting says.
    if (msg.startsWith('Server listening at')) return undefined;
    const time = new Date(Number(entry.time) || Date.now()).toTimeString().slice(0, 8);
    const res = entry.res as { statusCode?: number } | undefined;
    if (msg === 'request completed' && res) {
      const request = started.get(reqId) ?? '';
      started.delete(reqId);
      const ms = typeof entry.responseTime === 'number' ? ` ${entry.responseTime.toFixed(0)} ms` : '';
      return `${time} ${request} ${res.statusCode}${ms}`;
    }
    const level = LEVELS[Number(entry.level)] ?? 'INFO';
    const extra = Object.entries(entry).filter(([k]) => !SHOWN.has(k)).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    const err = entry.err as { message?: string; stack?: string } | undefined;
    const lines = [`${time} ${level.padEnd(5)} ${[msg, ...extra].join(' ')}`];
    if (err) lines.push(`  ${(err.stack ?? err.message ?? '').split('\n').join('\n  ')}`);
    return lines.join('\n');
  };
  return {
    /** pino's destination interface: whole JSON lines. */
    write(chunk: string): void {
      for (const json of chunk.split('\n')) {
        if (!json) continue;
        let entry: Record<string, unknown> | undefined;
        try {
          entry = JSON.parse(json) as Record<string, unknown>;
        } catch {
          write(`${json}\n`);
          continue;
        }
        const line = format(entry);
        if (line !== undefined) write(`${line}\n`);
      }
    },
  };
}
