/**
 * Terminal facts in one place, as gh's IOStreams: whether stdout and stdin are terminals, the
 * width, colours, and whether a human can answer a prompt. Commands and the renderers read these
 * from the base command's one IO object, so output can be tested with and without a terminal.
 */
import { isatty } from 'node:tty';

export interface IO {
  readonly stdoutIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  /** Terminal cells per line: the terminal's, else COLUMNS, else 80. */
  readonly columns: number;
  /** Colours only on a terminal, and never when NO_COLOR is set to anything (no-color.org). */
  readonly color: boolean;
  /** A human can answer a prompt: stdin is a terminal and this is not a CI job. */
  readonly interactive: boolean;
  out(text: string): void;
  err(text: string): void;
}

export function systemIO(env: NodeJS.ProcessEnv = process.env): IO {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  // Asked of the descriptor: reading process.stdin.isTTY would open a stream over stdin (and load
  // Node's file-stream and readline modules when it is a file) in every command, most never reading it.
  const stdinIsTTY = isatty(0);
  const fromEnv = Number.parseInt(env.COLUMNS ?? '', 10);
  return {
    stdoutIsTTY,
    stdinIsTTY,
    columns: (stdoutIsTTY && process.stdout.columns) || (fromEnv > 0 ? fromEnv : 80),
    color: !env.NO_COLOR && stdoutIsTTY && env.TERM !== 'dumb',
    interactive: stdinIsTTY && !env.CI,
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
  };
}
