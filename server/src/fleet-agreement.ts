import { createHash, randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from './config.js';
import type { Database, HeldLock } from './db/database.js';
import { StartupError } from './startup-error.js';

/** Session advisory lock (class, member) each registered process holds for as long as it lives. */
const MEMBER_LOCK_CLASS = 72_410_301;
/** Transaction advisory lock under which a process checks the others and registers. */
const REGISTER_LOCK = 72_410_302;

/** How often a process checks that it still holds its lock and its row (after a lost database session). */
const KEEP_EVERY_MS = 5_000;

interface Fingerprint {
  secret_hash: string;
  rate_limit_store: string;
  short_domain: string;
  plan_mode: string;
}

type FleetConfig = Pick<Config, 'redisUrl' | 'shortDomain' | 'planMode'>;

/** The settings a fleet must share, as stored: a secret only as a keyed hash. */
export function fingerprintOf(config: FleetConfig, secret: string): Fingerprint {
  const hash = (what: string, value: string) => createHash('sha256').update(`hop fleet ${what}\u0000${value}`).digest('hex');
  return {
    secret_hash: hash('secret', secret),
    rate_limit_store: config.redisUrl ? `redis ${hash('redis', config.redisUrl)}` : 'database',
    short_domain: config.shortDomain,
    plan_mode: config.planMode,
  };
}

/** What breaks when processes of one database disagree on a setting, and how to say each value. */
const SETTINGS: { column: keyof Fingerprint; variable: string; breaks: string; show?: (v: string) => string }[] = [
  {
    column: 'secret_hash', variable: 'HOP_SECRET',
    breaks: 'sessions, unlock cookies and webhook secrets made by one would not open on the other (a process without HOP_SECRET generates its own)',
  },
  {
    column: 'rate_limit_store', variable: 'REDIS_URL', show: (v) => (v === 'database' ? 'the database (no REDIS_URL)' : 'Redis'),
    breaks: 'rate limits would count in two stores, and each would allow the whole limit',
  },
  {
    column: 'short_domain', variable: 'HOP_SHORT_DOMAIN', show: (v) => v,
    breaks: 'links made through one would not redirect on the other',
  },
  {
    column: 'plan_mode', variable: 'HOP_PLANS', show: (v) => (v === 'plans' ? 'on' : 'off'),
    breaks: 'the same workspace would have plan limits and gated features on one and none on the other',
  },
];

const COLUMNS = SETTINGS.map((s) => s.column);

export interface FleetMembership {
  leave(): Promise<void>;
}

/** Where a process that lost its database session and finds the fleet changed says so. */
export interface FleetLog {
  error(o: object, msg: string): void;
}

/**
 * Joins the processes running on this PostgreSQL database, or refuses to start naming the setting
 * this process disagrees with them on. Only running processes count (each holds its advisory lock
 * while it lives), so a fleet changes a shared setting by stopping every process and starting them
 * again. The embedded database has one process, and HOP_FLEET_CHECK=off (a test harness running
 * unrelated servers on one database) skips the check.
 *
 * A lost database session ends the lock, and the next process to join removes the row; so the
 * process takes its lock again and registers again once the database answers. If the fleet it
 * finds then disagrees, it can no longer refuse to start: it logs the disagreement and stays out.
 */
export async function joinFleet(
  db: Database, config: FleetConfig & Pick<Config, 'fleetCheck'>, secret: string, log?: FleetLog,
): Promise<FleetMembership | null> {
  if (db.kind !== 'postgres' || !config.fleetCheck) return null;
  let member = 0;
  let lock: HeldLock | null = null;
  // A random member number; in the rare case another live process has it, draw again.
  while (!lock) {
    member = randomInt(1, 2 ** 31);
    lock = await db.holdLock(MEMBER_LOCK_CLASS, member);
  }
  const mine = fingerprintOf(config, secret);
  try {
    await register(db, member, mine);
  } catch (err) {
    await lock.release();
    throw err;
  }
  const held = lock;
  let keeping: Promise<void> = Promise.resolve();
  const keep = async () => {
    if (!(await held.ensure())) return;
    const [row] = await db.query('select 1 from fleet_processes where member = $1', [member]);
    if (!row) await register(db, member, mine);
  };
  const timer = setInterval(() => {
    keeping = keeping.then(keep).catch((err) => log?.error({ err }, 'registering again in the fleet failed'));
  }, KEEP_EVERY_MS);
  timer.unref();
  return {
    async leave() {
      clearInterval(timer);
      await keeping;
      await db.query('delete from fleet_processes where member = $1', [member]).catch(() => {});
      await held.release();
    },
  };
}

/** Under the register lock: removes rows of processes gone, compares with the rest, adds this one. */
async function register(db: Database, member: number, mine: Fingerprint) {
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [REGISTER_LOCK]);
    await tx.query(
      `delete from fleet_processes p where not exists (
         select 1 from pg_locks l
         where l.locktype = 'advisory' and l.classid = $1::oid and l.objid = p.member::oid and l.objsubid = 2 and l.granted
           and l.database = (select oid from pg_database where datname = current_database()))`,
      [MEMBER_LOCK_CLASS],
    );
    const rows = await tx.query<Fingerprint & { host: string }>(`select host, ${COLUMNS.join(', ')} from fleet_processes where member <> $1`, [member]);
    const problems = SETTINGS.flatMap((s) => {
      const differing = rows.filter((r) => r[s.column] !== mine[s.column]);
      if (differing.length === 0) return [];
      const hosts = [...new Set(differing.map((r) => r.host))].join(', ');
      const values = s.show ? `; theirs: ${s.show(differing[0][s.column])}, this one's: ${s.show(mine[s.column])}` : '';
      return [`${s.variable} differs from ${differing.length} running process${differing.length === 1 ? '' : 'es'} on this database (on ${hosts}${values}): ${s.breaks}`];
    });
    if (problems.length > 0) {
      throw new StartupError(`this process disagrees with the fleet: ${problems.join('; ')}. Give every process the same setting, or stop them all before changing it.`);
    }
    await tx.query(
      `insert into fleet_processes (member, host, ${COLUMNS.join(', ')}) values ($1, $2, ${COLUMNS.map((_, i) => `$${i + 3}`).join(', ')})
       on conflict (member) do nothing`,
      [member, hostname(), ...COLUMNS.map((c) => mine[c])],
    );
  });
}
