import { Flags } from '@oclif/core';
import type { User } from '@hop/shared';
import type { OAuthTokenResponse } from '@hop/shared';
import { BaseCommand } from '../base-command.js';
import { checkApiUrl, credentialKind, type CredentialKind } from '../config-store.js';
import { UsageError } from '../errors.js';
import { askSecret, readStdin } from '../prompts.js';
import { browserUnavailable, logInWithBrowser, logInWithDevice } from '../login-flows.js';
import { storeTokens } from '../oauth-login.js';
import { identify, type LoginWorkspace } from '../login-identity.js';

export interface LoginResult {
  user: User | Pick<User, 'id' | 'email' | 'name'>;
  apiUrl: string;
  credentialKind: CredentialKind;
  /** The default workspace now stored (a key's or third-party token's own workspace); null when none. */
  workspace: LoginWorkspace | null;
  /** For a browser or device login: the granted scopes and when the access token expires (it is refreshed). */
  scopes?: string[];
  expiresAt?: string;
}

export default class Login extends BaseCommand<typeof Login> {
  static summary = 'Log in to a Hop server: in the browser, with a code on another device, or with an API key';
  static description = `Without flags, opens the browser on the server's sign-in page, where you sign in (or sign up), approve, and the browser comes back to a one-time address on 127.0.0.1. When no browser can be opened (no display, or over SSH), or with --device, it prints a one-time code and an address to open on any device instead, and waits for your approval there (RFC 8628 device flow). The login acts in every workspace you belong to, with your role in each; switch with \`hop workspaces use\`. Its access token lasts an hour and is refreshed by itself; \`hop logout\` revokes it.

With --with-token, an API key or token is read from stdin (or asked for on a terminal), checked with the server, and stored (file mode 0600); an API key selects its own workspace.`;
  static skipRefresh = true;
  static examples = [
    '<%= config.bin %> login',
    '<%= config.bin %> login --device',
    'echo "$HOP_KEY" | <%= config.bin %> login --with-token',
    '<%= config.bin %> login --scope links:read --scope links:write --api-url https://hop.example.com',
  ];
  // oclif would draw the exclusive flags as `[--no-browser |  | [--device | --with-token]]`.
  static usage = [
    'login [--device | --no-browser] [--scope <scope>...] [--api-url <url>]',
    'login --with-token [--api-url <url>]',
  ];
  static flags = {
    'with-token': Flags.boolean({ description: 'read an API key or bearer token from stdin' }),
    device: Flags.boolean({ exclusive: ['with-token'], description: 'log in with a one-time code on another device (for SSH sessions and machines without a browser)' }),
    'no-browser': Flags.boolean({ exclusive: ['with-token', 'device'], description: 'print the sign-in address instead of opening a browser (on this machine)' }),
    scope: Flags.string({ multiple: true, helpValue: '<scope>', exclusive: ['with-token'], description: 'ask for this scope only; repeat for several (default: every scope)' }),
    'api-url': Flags.string({ helpValue: '<url>', description: 'address of the Hop server, stored for later commands' }),
  };

  async run(): Promise<LoginResult> {
    const apiUrl = this.flags['api-url'] ? checkApiUrl(this.flags['api-url'], '--api-url') : this.settings.apiUrl;
    const tokens = this.flags['with-token'] ? undefined : await this.logInInteractively(apiUrl);
    const credential = tokens ? tokens.access_token : await this.readCredential();
    const { user, workspace, count } = await identify(this.clientFor(apiUrl, credential), credential, tokens, this.store.get('workspace'));
    if (tokens) storeTokens(this.store, tokens);
    else {
      this.store.set('credential', credential);
      this.store.delete('oauth');
    }
    if (this.flags['api-url']) this.store.set('apiUrl', apiUrl);
    this.storeWorkspace(workspace);
    const kind = credentialKind(credential);
    this.info(`Logged in to ${apiUrl} as ${user.email} with ${kind === 'api-key' ? 'an API key' : kind === 'oauth' ? 'the CLI\'s own login' : 'a token'}`);
    this.info(workspace
      ? `Default workspace: ${workspace.slug} (${workspace.id})${workspace.bound ? ', the one this credential belongs to' : '; switch with `hop workspaces use <slug>`'}`
      : count === 0 ? 'You belong to no workspace yet: create one with `hop workspaces create --name "My team" --use`' : 'Choose a workspace with `hop workspaces use <slug>` (see `hop workspaces list`)');
    const oauth = tokens ? this.store.get('oauth') : undefined;
    return { user, apiUrl, credentialKind: kind, workspace, ...(oauth ? { scopes: oauth.scopes, expiresAt: oauth.expiresAt } : {}) };
  }

  private storeWorkspace(workspace: LoginWorkspace | null) {
    if (workspace) {
      this.store.set('workspace', workspace.id);
      this.store.set('workspaceSlug', workspace.slug);
    } else {
      this.store.delete('workspace');
      this.store.delete('workspaceSlug');
    }
  }

  private async readCredential(): Promise<string> {
    const credential = this.interactive ? await askSecret('API key or token:') : await readStdin();
    if (!credential) throw new UsageError('no API key or token on stdin: pipe one in (`echo "$HOP_API_KEY" | hop login --with-token`)');
    return credential.trim();
  }

  /** The browser (loopback redirect, RFC 8252), or the device flow when no browser can be used here. */
  private async logInInteractively(apiUrl: string): Promise<OAuthTokenResponse> {
    const { device, 'no-browser': noBrowser, scope } = this.flags;
    if (device) return logInWithDevice(apiUrl, scope);
    if (!noBrowser && !this.interactive) {
      throw new UsageError('not a terminal: pipe a credential into `hop login --with-token`, or use `hop login --device`');
    }
    // Over SSH the browser cannot come back to this machine's loopback address; without a display there is no browser.
    const why = browserUnavailable();
    if (why && (!noBrowser || why === 'over SSH')) {
      process.stderr.write(`No browser can be used (${why}): logging in with a one-time code instead.\n`);
      return logInWithDevice(apiUrl, scope);
    }
    return logInWithBrowser(apiUrl, scope, !noBrowser);
  }
}
