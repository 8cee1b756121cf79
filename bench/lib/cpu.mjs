// CPU time used by processes, read from /proc (Linux): what a request costs in CPU whatever else
// the machine is doing, which a ratio of requests/s on two shared cores cannot show.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

export function cpuMsOf(pid) {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0; // the process has gone
  }
}

/** The process id of the local PostgreSQL server's postmaster (127.0.0.1:5432), read once. */
let postmaster;
function postmasterPid() {
  if (postmaster === undefined) {
    const dir = execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-Atc', 'show data_directory'], { encoding: 'utf8' }).trim();
    postmaster = readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0].trim();
  }
  return postmaster;
}

/**
 * Running processes of the local PostgreSQL server: its postmaster and its children, the shared
 * ones (writer, WAL writer, checkpointer, autovacuum...) and the backends of `database` (every
 * backend when none is named). Other sessions' tests on the same server then do not count as this
 * benchmark's database CPU, nor do the scratch clusters tests start (an initdb, a server of their
 * own), which are no child of this server.
 */
function postgresPids(database) {
  const server = postmasterPid();
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') return false;
      if (pid !== server) {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] !== server) return false;
      }
      if (typeof database !== 'string') return true;
      // A backend's title: "postgres: 15/main: <user> <database> <client> <state>".
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      return !/ \d+\.\d+\.\d+\.\d+\(\d+\)| \[local\]/.test(title) || title.includes(` ${database} `);
    } catch {
      return false;
    }
  });
}

/**
 * Starts counting CPU time of the given processes and, when asked, of PostgreSQL's (`postgres`:
 * true for all of its processes, or a database name for the shared ones and that database's
 * backends). A process that ends meanwhile counts what it used until its last reading.
 */
export function cpuMeter({ pids = [], postgres = false }) {
  const started = new Map();
  const pgPids = () => (postgres ? postgresPids(postgres) : []);
  for (const pid of [...pids, ...pgPids()]) started.set(pid, cpuMsOf(pid));
  /** CPU milliseconds used since the start: by the processes, and by PostgreSQL. */
  const read = () => {
    const used = (pid) => Math.max(0, cpuMsOf(pid) - (started.get(pid) ?? 0));
    const own = pids.reduce((s, p) => s + used(p), 0);
    // Backends that ended before the reading are not counted (their last figure is gone); those
    // that began after the start count all their time.
    const pg = pgPids().reduce((s, p) => s + used(p), 0);
    return { own, postgres: pg };
  };
  return { read, stop: read };
}
