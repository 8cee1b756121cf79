import { BaseCommand } from '../base-command.js';
import { revokeTokens } from '../oauth-login.js';

export interface LogoutResult {
  apiUrl: string;
  removed: boolean;
  /** Set for a browser login: whether the server revoked its tokens. */
  revoked?: boolean;
}

export default class Logout extends BaseCommand<typeof Logout> {
  static summary = 'Forget the stored credential; a browser login is also revoked on the server';
  static examples = [
    '<%= config.bin %> logout',
  ];
  static description = 'A login made with `hop login` (OAuth) is revoked on the server (POST /v1/oauth/revoke) before it is forgotten. An API key or session token stored with --with-token stays valid on the server: delete a key with `hop keys delete`.';
  static skipRefresh = true;

  async run(): Promise<LogoutResult> {
    const removed = this.store.has('credential');
    const oauth = this.store.get('oauth');
    let revoked: boolean | undefined;
    if (oauth) {
      // Forget the login even when the server cannot be reached; say so, and exit 0.
      revoked = await revokeTokens(this.settings.apiUrl, oauth).then(() => true, (err: Error) => {
        this.info(`Could not revoke the login on the server: ${err.message}`);
        return false;
      });
    }
    this.store.delete('credential');
    this.store.delete('oauth');
    this.info(removed ? `Logged out of ${this.settings.apiUrl}${revoked ? ' (tokens revoked)' : ''}` : 'No stored credential');
    if (process.env.HOP_API_KEY) this.info('HOP_API_KEY is still set in the environment and will be used');
    return { apiUrl: this.settings.apiUrl, removed, ...(revoked === undefined ? {} : { revoked }) };
  }
}
