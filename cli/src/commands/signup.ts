import { Flags } from '@oclif/core';
import type { User } from '@hop/shared';
import { BaseCommand } from '../base-command.js';
import { checkApiUrl } from '../config-store.js';
import { UsageError } from '../errors.js';
import { askText, newPassword } from '../prompts.js';

export interface SignupResult {
  user: User;
  apiUrl: string;
  /** When the stored session ends (12 hours); `hop login` then gives a login that refreshes itself. */
  expiresAt: string;
}

export default class Signup extends BaseCommand<typeof Signup> {
  static summary = 'Create an account on a Hop server and log in with it';
  static description = 'On a terminal, asks for what is missing. In scripts, pass --email and --name and pipe the password into --password-stdin (a password is never taken as a flag: it would end up in the shell history and the process list). The new account\'s 12-hour session is stored as the login; create a workspace next.';
  static examples = [
    '<%= config.bin %> signup',
    'echo "$PASSWORD" | <%= config.bin %> signup --email ada@example.com --name "Ada Lovelace" --password-stdin',
  ];
  static flags = {
    email: Flags.string({ description: 'e-mail address (the login)' }),
    name: Flags.string({ description: 'your name' }),
    'password-stdin': Flags.boolean({ description: 'read the password from stdin (at least 8 characters; the trailing newline is dropped)' }),
    'api-url': Flags.string({ description: 'address of the Hop server, stored for later commands' }),
  };

  async run(): Promise<SignupResult> {
    const apiUrl = this.flags['api-url'] ? checkApiUrl(this.flags['api-url'], '--api-url') : this.settings.apiUrl;
    const email = this.flags.email ?? (await this.ask('E-mail:', '--email'));
    const name = this.flags.name ?? (await this.ask('Name:', '--name'));
    const password = await this.password();
    const { data } = await this.clientFor(apiUrl, '').call('signup', { body: { email, name, password } });
    this.store.set('credential', data.token);
    this.store.delete('oauth');
    this.store.delete('workspace');
    this.store.delete('workspaceSlug');
    if (this.flags['api-url']) this.store.set('apiUrl', apiUrl);
    this.info(`Created ${data.user.email} on ${apiUrl} and logged in.\nNext: create a workspace with \`hop workspaces create --name "My team" --use\``);
    return { user: data.user, apiUrl, expiresAt: data.expiresAt };
  }

  private async ask(message: string, flag: string): Promise<string> {
    if (!this.interactive) throw new UsageError(`${flag} is required when not on a terminal`);
    return (await askText(message)).trim();
  }

  private async password(): Promise<string> {
    if (!this.flags['password-stdin'] && !this.interactive) throw new UsageError('not a terminal: pipe the password into --password-stdin');
    return newPassword('password', this.io);
  }
}
