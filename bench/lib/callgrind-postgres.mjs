// Instructions a PostgreSQL backend executes for a statement, counted by valgrind's callgrind:
// the same from run to run to a few parts in a million, whatever else the machine does, where
// CPU time on this shared 2-core machine moves by ±15% between trials. A database of the local
// server is copied into a scratch cluster (initdb in a temporary directory, Unix socket only, no
// TCP port), which is stopped; each statement then runs in a single-user backend under callgrind,
// inside a transaction it rolls back, so every statement sees the same database.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const bin = (() => {
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
})();

/** Why instructions cannot be counted here, or null when they can. */
export function callgrindMissing() {
  if (spawnSync('valgrind', ['--version']).status !== 0) return 'valgrind is not installed';
  if (!bin) return 'pg_config is not on the PATH';
  return null;
}

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
const asRoot = userInfo().uid === 0;
function run(program, args, opts = {}) {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 30, ...opts });
  if (r.status !== 0) throw new Error(`${program} ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return r;
}

/**
 * Copies `database` (on 127.0.0.1:5432) into a scratch cluster with the same collation, then
 * counts, for each statement of `statements`, the instructions of its execution (`PortalRun`:
 * parsing and planning are not counted) in a fresh single-user backend, inside `begin` …
 * `rollback` after `setup`. Returns the counts in order.
 */
export function instructionsOf({ database, setup = '', statements }) {
  const dir = mkdtempSync(join(tmpdir(), 'hop-callgrind-'));
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  /** A single-user backend on the copy, fed `script`; under callgrind when `countInto` names its output. */
  const single = (script, countInto) => {
    const backend = [join(bin, 'postgres'), '--single', '-j', '-D', data, 'bench'];
    return countInto
      ? run('valgrind', ['--tool=callgrind', `--callgrind-out-file=${countInto}`, '--toggle-collect=PortalRun', ...backend], { input: script })
      : run(backend[0], backend.slice(1), { input: script });
  };
  try {
    const [collate, ctype] = execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-Atc',
      'select datcollate, datctype from pg_database where datname = current_database()'], { encoding: 'utf8' }).trim().split('|');
    run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', `--lc-collate=${collate}`, `--lc-ctype=${ctype}`]);
    run(join(bin, 'pg_ctl'), ['-D', data, '-w', '-o', `-c listen_addresses='' -k ${dir}`, '-l', join(dir, 'log'), 'start']);
    try {
      run(join(bin, 'createdb'), ['-h', dir, '-U', 'postgres', 'bench']);
      const dump = execFileSync(join(bin, 'pg_dump'), ['-h', '127.0.0.1', '-U', 'postgres', database], { maxBuffer: 1 << 30 });
      run(join(bin, 'psql'), ['-h', dir, '-U', 'postgres', '-q', '-v', 'ON_ERROR_STOP=1', 'bench'], { input: dump });
      run(join(bin, 'psql'), ['-h', dir, '-U', 'postgres', '-q', '-v', 'ON_ERROR_STOP=1', '-c', 'vacuum analyze', 'bench']);
    } finally {
      run(join(bin, 'pg_ctl'), ['-D', data, '-w', 'stop']);
    }
    return statements.map((statement, i) => {
      // Each statement finds the tables as the copy left them: a vacuum clears what the last
      // rolled-back one left behind (dead row versions it would otherwise step over).
      single('vacuum;\n\n');
      const r = single(`begin;\n\n${setup ? `${setup};\n\n` : ''}${statement};\n\nrollback;\n\n`, join(dir, `callgrind-${i}.out`));
      const m = /Collected : (\d+)/.exec(r.stderr);
      if (!m) throw new Error(`callgrind counted nothing: ${r.stderr.slice(-2000)}`);
      if (/\bERROR:/.test(r.stdout + r.stderr)) throw new Error(`the statement failed: ${(r.stdout + r.stderr).match(/ERROR:.*/)[0]}`);
      return Number(m[1]);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
