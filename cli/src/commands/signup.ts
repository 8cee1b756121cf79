import { Flags } from '@oclif/core';
import type { SignupMode, User, Workspace } from '@hop/shared';
import { inviteTokenFrom } from '@hop/shared/constants';
import { HopApiError, type HopClient } from '@hop/shared/client';
import { BaseCommand } from '../base-command.js';
import { checkApiUrl } from '../config-store.js';
import { UsageError } from '../errors.js';
import { askText, newPassword } from '../prompts.js';

export interface SignupResult {
  user: User;
  apiUrl: string;
  /** When the stored session ends (12 hours); `hop login` then gives a login that refreshes itself. */
  expiresAt: string;
  /** The workspace the invite added the account to (now the default one); null without an invite. */
  workspace: Workspace | null;
}

export default class Signup extends BaseCommand<typeof Signup> {
  static summary = 'Create an account on a Hop server and log in with it';
  static description = 'On a terminal, asks for what is missing. In scripts, pass --email and --name and pipe the password into --password-stdin (a password is never taken as a flag: it would end up in the shell history and the process list). The new account\'s 12-hour session is stored as the login; create a workspace next. With --invite the account joins the invite\'s workspace at once; a server that takes sign-ups by invite only requires it, and one with sign-up closed refuses before asking anything.';
  static examples = [
    '<%= config.bin %> signup',
    'echo "$PASSWORD" | <%= config.bin %> signup --email ada@example.com --name "Ada Lovelace" --password-stdin',
    '<%= config.bin %> signup --invite https://hop.example.com/app/invites/hopinv_3xZq9Lm2Pw7Kd4Rt8Vb1Nc6H',
  ];
  static flags = {
    email: Flags.string({ description: 'e-mail address (the login)' }),
    name: Flags.string({ description: 'your name' }),
    'password-stdin': Flags.boolean({ description: 'read the password from stdin (at least 8 characters; the trailing newline is dropped)' }),
    'api-url': Flags.string({ description: 'address of the Hop server, stored for later commands' }),
    invite: Flags.string({ description: 'the invite link (or its token) you were sent: the account joins its workspace' }),
  };

  async run(): Promise<SignupResult> {
    const apiUrl = this.flags['api-url'] ? checkApiUrl(this.flags['api-url'], '--api-url') : this.settings.apiUrl;
    const client = this.clientFor(apiUrl, '');
    const inviteToken = await this.invite(apiUrl, await signupModeOf(client));
    const email = this.flags.email ?? (await this.ask('E-mail:', '--email'));
    const name = this.flags.name ?? (await this.ask('Name:', '--name'));
    const password = await this.password();
    const { data } = await client.call('signup', { body: { email, name, password, inviteToken } });
    this.store.set('credential', data.token);
    this.store.delete('oauth');
    this.store.delete('workspace');
    this.store.delete('workspaceSlug');
    if (this.flags['api-url']) this.store.set('apiUrl', apiUrl);
    // A new account belongs to no workspace but the invite's.
    const workspace = inviteToken ? (await this.clientFor(apiUrl, data.token).call('listWorkspaces', { query: { limit: 1 } })).data[0] ?? null : null;
    if (workspace) {
      this.store.set('workspace', workspace.id);
      this.store.set('workspaceSlug', workspace.slug);
      this.info(`Created ${data.user.email} on ${apiUrl}, logged in, and joined ${workspace.name} (${workspace.slug}) as ${workspace.role}: it is the default workspace.`);
    } else {
      this.info(`Created ${data.user.email} on ${apiUrl} and logged in.\nNext: create a workspace with \`hop workspaces create --name "My team" --use\``);
    }
    return { user: data.user, apiUrl, expiresAt: data.expiresAt, workspace };
  }

  /** The invite's token: --invite, or asked for on a terminal when the server takes sign-ups by invite only. */
  private async invite(apiUrl: string, mode: SignupMode | undefined): Promise<string | undefined> {
    if (mode === 'closed') {
      throw new HopApiError('SIGNUP_CLOSED', `sign-up is closed on ${apiUrl}: ask its operator to create your account, then run \`hop login\``, 403, { signup: mode });
    }
    const given = inviteTokenFrom(this.flags.invite);
    if (given || mode !== 'invite') return given;
    if (!this.interactive) throw new UsageError(`--invite is required: ${apiUrl} takes sign-ups by invite only (ask a workspace admin to invite you)`);
    this.info(`${apiUrl} takes sign-ups by invite only.`);
    return inviteTokenFrom(await askText('Invite link (or token):'));
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

/** Who may sign up (GET /v1/server); undefined from a server too old to say. */
async function signupModeOf(client: HopClient): Promise<SignupMode | undefined> {
  try {
    return (await client.call('getServer', {})).data.signup;
  } catch (err) {
    if (err instanceof HopApiError && err.code === 'NOT_FOUND') return undefined;
    throw err;
  }
}
