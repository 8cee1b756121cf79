import { BaseCommand } from '../base-command.js';
import { credentialKind } from '../config-store.js';
import { revokeTokens } from '../oauth-login.js';

export interface LogoutResult {
  apiUrl: string;
  removed: boolean;
  /** Set for a browser login or a session token: whether the server ended it. */
  revoked?: boolean;
}

export default class Logout extends BaseCommand<typeof Logout> {
  static summary = 'Forget the stored credential; a login or session is also ended on the server';
  static examples = [
    '<%= config.bin %> logout',
  ];
  static description = 'A login made with `hop login` (OAuth) is revoked on the server (POST /v1/oauth/revoke), and a session token (from `hop signup`, or stored with --with-token) is ended there (POST /v1/auth/logout), before it is forgotten. An API key stays valid on the server: delete it with `hop keys delete`.';
  static skipRefresh = true;

  async run(): Promise<LogoutResult> {
    const removed = this.store.has('credential');
    const oauth = this.store.get('oauth');
    const credential = this.store.get('credential');
    const apiUrl = this.settings.apiUrl;
    const end = oauth
      ? () => revokeTokens(apiUrl, oauth)
      : credential && credentialKind(credential) === 'token'
        ? async () => void (await this.clientFor(apiUrl, credential).call('logout', {}))
        : undefined;
    // Forget the login even when the server cannot be reached (or the session already ended); say so, and exit 0.
    const revoked = end && await end().then(() => true, (err: Error) => {
      this.info(`Could not end the login on the server: ${err.message}`);
      return false;
    });
    this.store.delete('credential');
    this.store.delete('oauth');
    this.info(removed ? `Logged out of ${apiUrl}${revoked ? ' (ended on the server)' : ''}` : 'No stored credential');
    if (process.env.HOP_API_KEY) this.info('HOP_API_KEY is still set in the environment and will be used');
    return { apiUrl, removed, ...(revoked === undefined ? {} : { revoked }) };
  }
}
