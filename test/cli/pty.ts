// Runs `bin/hop` on a pseudo-terminal (util-linux `script`), for behaviour that depends on one:
// tables, prompts, colours. stdout and stderr arrive mixed, in the order they were written.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { API_URL } from '../helpers/api.js';

const HOP_BIN = fileURLToPath(new URL('../../bin/hop', import.meta.url));
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
// `timeout --foreground`: without it, timeout moves hop into a process group of its own, which is
// in the background on the terminal unless the shell happened to exec timeout (bash does, dash
// does not: CI's environment has no SHELL, so `script` runs /bin/sh). A background process that
// sets raw mode for a prompt is stopped by SIGTTOU and never draws it.

export function hopOnTerminal(args: string[], opts: { env?: Record<string, string>; columns?: number; timeoutSeconds?: number } = {}) {
  const hop = [process.execPath, HOP_BIN, ...args].map(quote).join(' ');
  const command = `stty cols ${opts.columns ?? 100} rows 40; timeout --foreground ${opts.timeoutSeconds ?? 20} ${hop}`;
  const env: Record<string, string | undefined> = { ...process.env, HOP_API_URL: API_URL, NO_COLOR: '1', ...opts.env };
  for (const name of ['CI', 'HOP_API_KEY', 'HOP_WORKSPACE']) if (!opts.env?.[name]) delete env[name];
  const res = spawnSync('script', ['-qec', command, '/dev/null'], { env: env as NodeJS.ProcessEnv, encoding: 'utf8' });
  return { code: res.status ?? 1, output: res.stdout.replace(/\r\n/g, '\n') };
}

/**
 * `bin/hop` on a pseudo-terminal, answering prompts: each step waits for its pattern in the output
 * (stdout and stderr mixed, as the terminal shows them) and then types its text. Resolves with the
 * exit code and the whole output once hop ends.
 */
export async function converseOnTerminal(
  args: string[],
  steps: { waitFor: RegExp; type: string }[],
  opts: { env?: Record<string, string>; timeoutSeconds?: number } = {},
): Promise<{ code: number; output: string }> {
  const hop = [process.execPath, HOP_BIN, ...args].map(quote).join(' ');
  const env: Record<string, string | undefined> = { ...process.env, HOP_API_URL: API_URL, NO_COLOR: '1', ...opts.env };
  for (const name of ['CI', 'HOP_API_KEY', 'HOP_WORKSPACE']) if (!opts.env?.[name]) delete env[name];
  const child = spawn('script', ['-qec', `stty cols 100 rows 40; timeout --foreground ${opts.timeoutSeconds ?? 20} ${hop}`, '/dev/null'], {
    env: env as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  let next = 0;
  let seenUpTo = 0;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    output += d;
    // Each prompt is answered once, after it appears in output not already matched by an earlier step.
    while (next < steps.length) {
      const match = steps[next]!.waitFor.exec(output.slice(seenUpTo));
      if (!match) break;
      seenUpTo += match.index + match[0].length;
      child.stdin.write(steps[next++]!.type);
    }
  });
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c ?? 1));
  });
  if (next < steps.length) throw new Error(`hop ended (${code}) before ${steps[next]!.waitFor}:\n${output}`);
  return { code, output: output.replace(/\r\n/g, '\n') };
}
