import { Flags } from '@oclif/core';
import type { PasswordChanged } from '@hop/shared';
import { BaseCommand } from '../../base-command.js';
import { UsageError } from '../../errors.js';
import { askSecret, readPasswordStdin } from '../../prompts.js';

export default class AccountPassword extends BaseCommand<typeof AccountPassword> {
  static summary = 'Change your account password; every other session and CLI login is signed out';
  static description = 'On a terminal, asks for the current password and the new one (twice), hidden. In scripts, pipe both into --password-stdin: the current password on the first line, the new one on the second (a password is never taken as a flag: it would end up in the shell history and the process list). This login stays signed in.';
  static examples = [
    '<%= config.bin %> account password',
    'printf \'%s\\n%s\\n\' "$OLD" "$NEW" | <%= config.bin %> account password --password-stdin',
  ];
  static flags = {
    'password-stdin': Flags.boolean({ description: 'read the current password (first line) and the new one (second line) from stdin' }),
  };

  async run(): Promise<PasswordChanged> {
    const [currentPassword, newPassword] = await this.passwords();
    const { data } = await this.api.call('changePassword', { body: { currentPassword, newPassword } });
    this.info(`Password changed; ${data.endedSessions} other session${data.endedSessions === 1 ? '' : 's'} signed out`);
    return data;
  }

  private async passwords(): Promise<[string, string]> {
    if (this.flags['password-stdin'] && !this.io.stdinIsTTY) {
      const [current, next] = (await readPasswordStdin()).split(/\r?\n/);
      if (!current || !next) throw new UsageError('--password-stdin needs two lines: the current password, then the new one');
      return [current, next];
    }
    if (!this.interactive) throw new UsageError('not a terminal: pipe the current and the new password into --password-stdin');
    const current = await askSecret('Current password:');
    const next = await askSecret('New password (at least 8 characters):');
    if (next !== (await askSecret('New password again:'))) throw new UsageError('the new passwords differ');
    return [current, next];
  }
}
