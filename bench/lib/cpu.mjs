// CPU time used by processes, read from /proc (Linux): what a request costs in CPU whatever else
// the machine is doing, which a ratio of requests/s on two shared cores cannot show.
import { readFileSync, readdirSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMsOf(pid) {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0; // the process has gone
  }
}

/** Every running PostgreSQL server process (backends, writer, WAL writer…). */
function postgresPids() {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  });
}

/** Starts counting CPU time of the given processes (and of PostgreSQL's, when asked). */
export function cpuMeter({ pids = [], postgres = false }) {
  const read = () => ({
    own: pids.reduce((s, p) => s + cpuMsOf(p), 0),
    postgres: postgres ? postgresPids().reduce((s, p) => s + cpuMsOf(p), 0) : 0,
  });
  const start = read();
  return {
    /** CPU milliseconds used since the start: by the processes, and by PostgreSQL. */
    stop() {
      const end = read();
      return { own: end.own - start.own, postgres: end.postgres - start.postgres };
    },
  };
}
