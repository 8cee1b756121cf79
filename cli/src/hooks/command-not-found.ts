import type { Hook } from '@oclif/core';
import { closest } from '../suggest.js';

/**
 * An unknown command is a usage error: one line on stderr with the closest command, exit 2, never
 * a prompt (oclif's own plugin asks on stdout and exits 127, which hangs or confuses scripts).
 */
const hook: Hook<'command_not_found'> = async function (opts) {
  const words = [...opts.id.split(':'), ...(opts.argv ?? []).filter((a) => !a.startsWith('-'))];
  const ids = [
    ...opts.config.commandIDs.filter((id) => !opts.config.findCommand(id)?.hidden),
    ...opts.config.topics.map((t) => t.name),
  ].map((id) => id.replaceAll(':', ' '));
  // Compare with as many words as each command has: `lnks list` is close to `links list`.
  const typed = (id: string) => words.slice(0, id.split(' ').length).join(' ');
  let suggestion: string | undefined;
  for (const depth of [2, 1, 3]) {
    const candidates = ids.filter((id) => id.split(' ').length === depth);
    suggestion = closest(typed(candidates[0] ?? ''), candidates);
    if (suggestion) break;
  }
  const unknown = opts.id.replaceAll(':', ' ');
  process.stderr.write(`Error: unknown command "${unknown}"${suggestion ? `; did you mean "${opts.config.bin} ${suggestion}"?` : ''} (see \`${opts.config.bin} --help\`)\n`);
  process.exit(2);
};

export default hook;
