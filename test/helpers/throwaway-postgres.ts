// A PostgreSQL cluster of a test's own, in a temporary directory on a free loopback port, that the
// test may stop and start at will (the machine's PostgreSQL serves the rest of the suite). initdb
// refuses to run as root, so as root the cluster belongs to the `postgres` OS user.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './start-server.mjs';

/** The directory of initdb and pg_ctl: PG_BIN, else the newest under /usr/lib/postgresql. */
function findBinaries(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : undefined;
}

/** Why a throw-away cluster cannot be made here, or undefined when it can (for `skip`). */
export function throwawayPostgresUnavailable(): string | undefined {
  const bin = findBinaries();
  if (!bin) return 'no PostgreSQL binaries (initdb, pg_ctl) found; set PG_BIN';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root without a postgres user for initdb';
  return undefined;
}

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** Stops the server: `fast` ends sessions and checkpoints, `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Starts it again on the same port and data. */
  start(): void;
  /** The server's log so far (for failure messages). */
  log(): string;
  /** Runs one statement through psql and answers its unaligned output. */
  query(sql: string): string;
  /** Stops the server (if running) and deletes its directory. */
  destroy(): void;
}

const live = new Set<ThrowawayPostgres>();
// A test that fails or is interrupted still must not leave a postmaster behind.
process.on('exit', () => {
  for (const pg of live) pg.destroy();
});

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const unavailable = throwawayPostgresUnavailable();
  if (unavailable) throw new Error(unavailable);
  const bin = findBinaries()!;
  const dir = mkdtempSync(join(tmpdir(), 'hop-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    const res = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
    if (res.status !== 0) {
      const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').slice(-2000) : '';
      throw new Error(`${cmd} ${args.join(' ')} failed (${res.status}):\n${res.stdout}${res.stderr}${log}`);
    }
    return res.stdout;
  };
  const port = await freePort();
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  // fsync off: a test cluster need not survive a power cut, only a server restart. Commits stay
  // synchronous, so an immediate stop keeps every acknowledged commit (it is in the WAL).
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=50`;
  let running = false;
  const pg: ThrowawayPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '30', 'start']);
      running = true;
    },
    stop(mode = 'fast') {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
      running = false;
    },
    log: () => (existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8') : ''),
    query(sql) {
      const res = spawnSync('psql', ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-XtAc', sql], { encoding: 'utf8', timeout: 30_000 });
      if (res.status !== 0) throw new Error(`psql: ${res.stderr}`);
      return res.stdout.trim();
    },
    destroy() {
      live.delete(pg);
      if (running) {
        try {
          pg.stop('immediate');
        } catch {
          /* already gone */
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  live.add(pg);
  try {
    pg.start();
  } catch (err) {
    pg.destroy();
    throw err;
  }
  return pg;
}
