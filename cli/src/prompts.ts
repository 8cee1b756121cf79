/**
 * Prompts, loaded only when one is shown (@inquirer/prompts is heavy for a cold start). They draw
 * on stderr so that stdout keeps only data. Callers check `interactive` first.
 */
import { UsageError } from './errors.js';
import type { IO } from './io.js';

const context = () => ({ output: process.stderr });

export async function askSecret(message: string): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  return password({ message, mask: '*' }, context());
}

export async function askText(message: string): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  return input({ message, required: true }, context());
}

export async function askConfirm(message: string): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  return confirm({ message, default: false }, context());
}

/** Everything piped into stdin, trimmed (`echo $TOKEN | hop login --with-token`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** A password piped into stdin: only the trailing newline is dropped (spaces may belong to it). */
export async function readPasswordStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/**
 * A new password for `--password-stdin`: piped, read from stdin; when stdin is a terminal, asked
 * for (hidden, twice), as typing it there is what "from stdin" means, without the echo. Under CI
 * nothing is asked: a terminal there has nobody at it.
 */
export async function newPassword(what: string, io: IO): Promise<string> {
  if (!io.stdinIsTTY) {
    const password = await readPasswordStdin();
    if (!password) throw new UsageError(`no ${what} on stdin`);
    return password;
  }
  if (process.env.CI) throw new UsageError(`CI is set, so nothing is asked: pipe the ${what} into --password-stdin`);
  const password = await askSecret(`${what[0]!.toUpperCase()}${what.slice(1)} (at least 8 characters):`);
  if (password !== (await askSecret('Again:'))) throw new UsageError(`the ${what}s differ`);
  return password;
}
