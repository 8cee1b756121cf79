// The in-process tier: the whole API built with buildApp on its own embedded database, called with
// app.inject, its services reading time from a clock the test moves. For logic that depends on
// time (expiry, invites, grace periods): the test sets the hour instead of sleeping.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/api/app.js';
import { loadConfig } from '../../server/src/config.js';
import { migrate } from '../../server/src/db/migrate.js';
import { openDatabase } from '../../server/src/db/open.js';
import type { Database } from '../../server/src/db/database.js';
import type { Clock } from '../../server/src/domain/clock.js';
import { createServices } from '../../server/src/services.js';
import { seedDataDir } from './embedded-template.mjs';

/** A clock that stands still until the test moves it. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(start = new Date()): ManualClock {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms) => (now += ms) };
}

export interface InProcessApi {
  app: FastifyInstance;
  clock: ManualClock;
  services: ReturnType<typeof createServices>;
  /** A JSON request; answers the status and the parsed body. */
  request(method: string, url: string, opts?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** An API on a fresh embedded database in a temporary folder, with a manual clock. */
export async function inProcessApi(env: Record<string, string> = {}): Promise<InProcessApi> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hop-inprocess-'));
  seedDataDir(dataDir, {});
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  const config = loadConfig({ ...rest, HOP_DATA_DIR: dataDir, HOP_LOG_LEVEL: 'silent', ...env });
  const db = await openDatabase(config);
  await migrate(db);
  const clock = manualClock();
  const services = createServices(config, db, { clock });
  const app = await buildApp(config, services, { logger: false });
  await app.ready();
  return {
    app, clock, services,
    async request(method, url, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      const res = await app.inject({ method: method as 'GET', url, headers, ...(opts.body !== undefined ? { payload: opts.body as object } : {}) });
      const json = String(res.headers['content-type'] ?? '').includes('json') && res.body ? JSON.parse(res.body) : res.body;
      return { status: res.statusCode, body: json, headers: res.headers };
    },
    async close() {
      await app.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Holds the embedded database's one session in an open transaction, as a long job's would: it
 * resolves once the transaction has begun, so that every statement sent after it waits, and holds
 * until `release`. Releasing before the transaction began ends it as soon as it begins, so a test
 * that fails early never leaves the session held (and its process unable to exit).
 */
export async function holdDatabase(db: Database): Promise<{ release(): Promise<void> }> {
  let began!: () => void;
  let release!: () => void;
  const begun = new Promise<void>((r) => (began = r));
  const released = new Promise<void>((r) => (release = r));
  const held = db.transaction(async () => {
    began();
    await released;
  });
  await Promise.race([begun, held]);
  return {
    async release() {
      release();
      await held;
    },
  };
}
