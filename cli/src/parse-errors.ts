import type { Command } from '@oclif/core';
import { closest } from './suggest.js';

interface ParseError extends Error {
  /** NonExistentFlagsError: the unknown flags as typed. */
  flags?: string[];
  /** RequiredArgsError: the missing arguments. */
  args?: { name: string; description?: string }[];
}

/**
 * oclif's parse errors as one line with a next step, like gh: an unknown flag with the closest
 * one, a missing argument with the usage (without oclif's note about flags of several values).
 * Undefined for anything else.
 */
export function parseErrorLine(err: Error, id: string, bin: string, ctor: typeof Command): string | undefined {
  const e = err as ParseError;
  const command = `${bin} ${id.replaceAll(':', ' ')}`;
  if (Array.isArray(e.flags) && /^Nonexistent flag/.test(e.message)) {
    const known = ['json', 'help', ...Object.keys({ ...ctor.baseFlags, ...ctor.flags })];
    const typed = e.flags[0];
    const guess = closest(typed.replace(/^-+/, '').split('=')[0], known);
    return `unknown flag ${typed}${guess ? `; did you mean --${guess}?` : ''} (see \`${command} --help\`)`;
  }
  if (Array.isArray(e.args) && /^Missing \d+ required arg/.test(e.message)) {
    const args = Object.keys(ctor.args ?? {});
    const missing = e.args.map((a) => `<${a.name}>`).join(' ');
    return `missing ${missing}: usage \`${command} ${args.map((a) => `<${a}>`).join(' ')}\` (see \`${command} --help\`)`;
  }
  return undefined;
}
