import { Flags } from '@oclif/core';
import type { HopApiError, HopClient } from '@hop/shared/client';
import type { User, Workspace } from '@hop/shared';
import { BaseCommand } from '../base-command.js';
import { credentialKind, type CredentialKind } from '../config-store.js';
import { UsageError } from '../errors.js';
import { askSecret, readStdin } from '../prompts.js';
import { exchangeCode, startLogin, storeTokens } from '../oauth-login.js';
import type { OAuthTokenResponse } from '@hop/shared';

export interface LoginResult {
  user: User;
  apiUrl: string;
  credentialKind: CredentialKind;
  workspace: Workspace | null;
  /** For a browser login: the granted scopes and when the access token expires (it is refreshed). */
  scopes?: string[];
  expiresAt?: string;
}

export default class Login extends BaseCommand<typeof Login> {
  static summary = 'Log in to a Hop server: in the browser (OAuth with PKCE), or with an API key or token';
  static description = `Without flags, opens the browser on the server's authorize page, where you sign in, pick a workspace and approve; the browser comes back to a one-time address on 127.0.0.1 and the tokens are stored (file mode 0600). The access token lasts an hour and is refreshed by itself; \`hop logout\` revokes it. With --no-browser, the address to open is printed instead (for SSH sessions). With --with-token, the credential is read from stdin (or asked for on a terminal) and checked with the server before it is saved; an API key (hop_live_...) also selects its workspace.`;
  static skipRefresh = true;
  static examples = [
    '<%= config.bin %> login',
    '<%= config.bin %> login --no-browser --scope links:read --scope links:write',
    'echo "$HOP_KEY" | <%= config.bin %> login --with-token',
    '<%= config.bin %> login --with-token --api-url https://hop.example.com',
  ];
  static flags = {
    'with-token': Flags.boolean({ description: 'read an API key or bearer token from stdin' }),
    'no-browser': Flags.boolean({ exclusive: ['with-token'], description: 'print the login address instead of opening a browser' }),
    scope: Flags.string({ multiple: true, exclusive: ['with-token'], description: 'ask for this scope only; repeat for several (default: every scope)' }),
    'api-url': Flags.string({ description: 'address of the Hop server, stored for later commands' }),
  };

  async run(): Promise<LoginResult> {
    const apiUrl = this.flags['api-url'] ?? this.settings.apiUrl;
    const tokens = this.flags['with-token'] ? undefined : await this.logInWithBrowser(apiUrl);
    const credential = tokens ? tokens.access_token : await this.readCredential();
    const api = this.clientFor(apiUrl, credential);
    const { data: user } = await api.call('getMe', {});
    const workspace = await this.pickWorkspace(api);
    if (tokens) storeTokens(this.store, tokens);
    else {
      this.store.set('credential', credential);
      this.store.delete('oauth');
    }
    if (this.flags['api-url']) this.store.set('apiUrl', apiUrl);
    if (workspace) this.store.set('workspace', workspace.id);
    else this.store.delete('workspace');
    const kind = credentialKind(credential);
    this.info(`Logged in to ${apiUrl} as ${user.email} with ${kind === 'api-key' ? 'an API key' : kind === 'oauth' ? 'the browser' : 'a token'}`);
    this.info(workspace ? `Default workspace: ${workspace.slug} (${workspace.id})` : 'Choose a workspace with `hop workspaces use <slug>`');
    const oauth = tokens ? this.store.get('oauth') : undefined;
    return { user, apiUrl, credentialKind: kind, workspace: workspace ?? null, ...(oauth ? { scopes: oauth.scopes, expiresAt: oauth.expiresAt } : {}) };
  }

  private async readCredential(): Promise<string> {
    const credential = this.interactive ? await askSecret('API key or token:') : await readStdin();
    if (!credential) throw new UsageError('no API key or token on stdin');
    return credential.trim();
  }

  /** Authorization code + PKCE through the browser, back to a loopback address (RFC 8252). */
  private async logInWithBrowser(apiUrl: string): Promise<OAuthTokenResponse> {
    const noBrowser = this.flags['no-browser'];
    if (!noBrowser && !this.interactive) {
      throw new UsageError('not a terminal: use `hop login --no-browser` and open the printed address, or pipe a credential into `hop login --with-token`');
    }
    const login = await startLogin(apiUrl, this.flags.scope);
    try {
      if (noBrowser) {
        process.stderr.write(`Open this address in a browser to log in:\n${login.url}\n`);
      } else {
        process.stderr.write(`Opening the browser to log in; if it does not open, visit:\n${login.url}\n`);
        const { default: open } = await import('open');
        await open(login.url).catch(() => undefined);
      }
      process.stderr.write('Waiting for the browser...\n');
      return await exchangeCode(apiUrl, login, await login.code);
    } finally {
      login.close();
    }
  }

  /** The stored default if this credential sees it, else its only workspace (a key sees just its own). */
  private async pickWorkspace(api: HopClient): Promise<Workspace | undefined> {
    const listed = await api.paginate('listWorkspaces', { query: { limit: 100 } }).catch((err: HopApiError) => {
      if (err.statusCode === 403) return undefined; // a key without workspaces:read: the user chooses later
      throw err;
    });
    if (!listed) return undefined;
    const { data } = listed;
    return data.find((w) => w.id === this.store.get('workspace')) ?? (data.length === 1 ? data[0] : undefined);
  }
}
