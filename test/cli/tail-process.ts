// A long-running `hop` (webhooks tail, links tail) as a child process whose output lines the test
// can wait for, each wait bounded by a deadline; `stop()` always ends it (SIGTERM, then SIGKILL).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HOP_BIN = fileURLToPath(new URL('../../bin/hop', import.meta.url));

export type TailProcess = ReturnType<typeof spawnHop>;

export function spawnHop(args: string[], env: Record<string, string>) {
  const childEnv: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const name of ['HOP_API_KEY', 'HOP_WORKSPACE', 'HOP_CONFIG_DIR', 'HOP_API_URL', 'CI']) delete childEnv[name];
  const child = spawn(process.execPath, [HOP_BIN, ...args], { env: { ...childEnv, ...env } as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let exitCode: number | null = null;
  const exited = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve((exitCode = code ?? (signal ? 128 : 1)))));
  const lines = () => stdout.split('\n').filter(Boolean);

  async function until<T>(find: () => T | undefined, ms: number, what: string): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (exitCode !== null) throw new Error(`hop exited ${exitCode} before ${what}\nstdout: ${stdout}\nstderr: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}\nstdout: ${stdout}\nstderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    lines,
    /** Every stdout line parsed as JSON (under --json each line is one object). */
    json: <T = Record<string, unknown>>() => lines().map((l) => JSON.parse(l) as T),
    waitForLine: (match: (line: string) => boolean, ms: number, what: string) => until(() => lines().find(match), ms, what),
    waitForJson: <T = Record<string, unknown>>(match: (o: T) => boolean, ms: number, what: string) =>
      until(() => lines().map((l) => JSON.parse(l) as T).find(match), ms, what),
    waitForStderr: (pattern: RegExp, ms: number, what: string) => until(() => pattern.exec(stderr) ?? undefined, ms, what),
    /** The exit code, waiting at most `ms` for the process to end on its own. */
    async exitWithin(ms: number): Promise<number> {
      const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms).unref());
      const code = await Promise.race([exited, timer]);
      if (code === 'timeout') throw new Error(`hop did not exit within ${ms} ms\nstdout: ${stdout}\nstderr: ${stderr}`);
      return code;
    },
    async stop(): Promise<number> {
      if (exitCode !== null) return exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
