// Runs `bin/hop` on a pseudo-terminal (util-linux `script`), for behaviour that depends on one:
// tables, prompts, colours. stdout and stderr arrive mixed, in the order they were written.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { API_URL } from '../helpers/api.js';

const HOP_BIN = fileURLToPath(new URL('../../bin/hop', import.meta.url));
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function hopOnTerminal(args: string[], opts: { env?: Record<string, string>; columns?: number; timeoutSeconds?: number } = {}) {
  const hop = [process.execPath, HOP_BIN, ...args].map(quote).join(' ');
  const command = `stty cols ${opts.columns ?? 100} rows 40; timeout ${opts.timeoutSeconds ?? 20} ${hop}`;
  const env: Record<string, string | undefined> = { ...process.env, HOP_API_URL: API_URL, NO_COLOR: '1', ...opts.env };
  for (const name of ['CI', 'HOP_API_KEY', 'HOP_WORKSPACE']) if (!opts.env?.[name]) delete env[name];
  const res = spawnSync('script', ['-qec', command, '/dev/null'], { env: env as NodeJS.ProcessEnv, encoding: 'utf8' });
  return { code: res.status ?? 1, output: res.stdout.replace(/\r\n/g, '\n') };
}
